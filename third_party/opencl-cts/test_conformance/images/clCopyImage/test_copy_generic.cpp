//
// Copyright (c) 2017 The Khronos Group Inc.
// 
// Licensed under the Apache License, Version 2.0 (the "License");
// you may not use this file except in compliance with the License.
// You may obtain a copy of the License at
//
//    http://www.apache.org/licenses/LICENSE-2.0
//
// Unless required by applicable law or agreed to in writing, software
// distributed under the License is distributed on an "AS IS" BASIS,
// WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
// See the License for the specific language governing permissions and
// limitations under the License.
//
#include "../testBase.h"
#include <CL/cl.h>
#include "../common.h"
#include "test_copy_generic.h"

static cl_int cleanup_mapped_image(cl_command_queue queue, cl_mem image,
                                   void *mapped)
{
    cl_int error = clEnqueueUnmapMemObject(queue, image, mapped, 0, NULL, NULL);
    if (error != CL_SUCCESS)
    {
        log_error("ERROR: Unable to unmap image after verify: %s\n",
                  IGetErrorString(error));
        return error;
    }

    error = clFinish(queue);
    if (error != CL_SUCCESS)
    {
        log_error("ERROR: clFinish() failed to return CL_SUCCESS: %s\n",
                  IGetErrorString(error));
        return error;
    }

    return CL_SUCCESS;
}

int test_copy_init_images(copy_image_env_t &env, image_descriptor *srcImageInfo,
                          image_descriptor *dstImageInfo,
                          copy_image_buffers_t &buffers)
{
    int error;

    // Generate some data to test against
    if (env.ctx.debugTrace) log_info(" - Resizing random image data...\n");

    generate_random_image_data(srcImageInfo, buffers.srcData, env.d);


    // Construct testing sources
    if (env.ctx.debugTrace) log_info(" - Writing source image...\n");

    buffers.srcImage = create_image(
        env.context, env.queue, buffers.srcData, srcImageInfo,
        env.ctx.enablePitch, env.ctx.testMipmaps, env.ctx.debugTrace, &error);
    if (buffers.srcImage == NULL) return error;


    // Initialize the destination to empty
    if (env.ctx.debugTrace) log_info(" - Writing destination image...\n");

    buffers.dstData.reset(nullptr, nullptr, 0, 0);
    buffers.dstImage = create_image(
        env.context, env.queue, buffers.dstData, dstImageInfo,
        env.ctx.enablePitch, env.ctx.testMipmaps, env.ctx.debugTrace, &error);
    if (buffers.dstImage == NULL) return error;

    size_t dstDataSize = get_image_size(dstImageInfo);
    buffers.dstData.reset(malloc(dstDataSize), NULL, 0, dstDataSize);
    if (buffers.dstData == NULL)
    {
        log_error("ERROR: unable to malloc %zu bytes in test_copy_init_images",
                  dstDataSize);
        return CL_OUT_OF_HOST_MEMORY;
    }

    return CL_SUCCESS;
}

int test_copy_image_generic(copy_image_env_t &env,
                            image_descriptor *srcImageInfo,
                            image_descriptor *dstImageInfo,
                            copy_image_buffers_t &buffers,
                            const size_t sourcePos[], const size_t destPos[],
                            const size_t regionSize[])
{
    int error;

    if (env.ctx.debugTrace) log_info(" ++ Entering inner test loop...\n");

    memset(buffers.dstData, 0xff, buffers.dstData.getSize());
    error = init_image(env.queue, buffers.dstImage, dstImageInfo,
                       buffers.dstData, env.ctx.testMipmaps);
    if (error != CL_SUCCESS)
    {
        return error;
    }

    size_t dstRegion[ 3 ] = { dstImageInfo->width, 1, 1};
    size_t dst_lod = 0;
    size_t origin[ 4 ] = { 0, 0, 0, 0 };

    if (env.ctx.testMipmaps)
    {
        switch(dstImageInfo->type)
        {
            case CL_MEM_OBJECT_IMAGE1D:
            case CL_MEM_OBJECT_IMAGE1D_BUFFER: dst_lod = destPos[1]; break;
            case CL_MEM_OBJECT_IMAGE1D_ARRAY:
            case CL_MEM_OBJECT_IMAGE2D:
                dst_lod = destPos[2];
                break;
            case CL_MEM_OBJECT_IMAGE2D_ARRAY:
            case CL_MEM_OBJECT_IMAGE3D:
                dst_lod = destPos[3];
                break;
        }

        dstRegion[ 0 ] = (dstImageInfo->width >> dst_lod)?(dstImageInfo->width >> dst_lod) : 1;
    }
    switch (dstImageInfo->type)
    {
        case CL_MEM_OBJECT_IMAGE1D_BUFFER:
        case CL_MEM_OBJECT_IMAGE1D:
            if (env.ctx.testMipmaps) origin[1] = dst_lod;
            break;
        case CL_MEM_OBJECT_IMAGE2D:
            dstRegion[ 1 ] = dstImageInfo->height;
            if (env.ctx.testMipmaps)
            {
                dstRegion[ 1 ] = (dstImageInfo->height >> dst_lod) ?(dstImageInfo->height >> dst_lod): 1;
                origin[ 2 ] = dst_lod;
            }
            break;
        case CL_MEM_OBJECT_IMAGE3D:
            dstRegion[ 1 ] = dstImageInfo->height;
            dstRegion[ 2 ] = dstImageInfo->depth;
            if (env.ctx.testMipmaps)
            {
                dstRegion[ 1 ] = (dstImageInfo->height >> dst_lod) ?(dstImageInfo->height >> dst_lod): 1;
                dstRegion[ 2 ] = (dstImageInfo->depth >> dst_lod) ?(dstImageInfo->depth >> dst_lod): 1;
                origin[ 3 ] = dst_lod;
            }
            break;
        case CL_MEM_OBJECT_IMAGE1D_ARRAY:
            dstRegion[ 1 ] = dstImageInfo->arraySize;
            if (env.ctx.testMipmaps) origin[2] = dst_lod;
            break;
        case CL_MEM_OBJECT_IMAGE2D_ARRAY:
            dstRegion[ 1 ] = dstImageInfo->height;
            dstRegion[ 2 ] = dstImageInfo->arraySize;
            if (env.ctx.testMipmaps)
            {
                dstRegion[ 1 ] = (dstImageInfo->height >> dst_lod) ?(dstImageInfo->height >> dst_lod): 1;
                origin[ 3 ] = dst_lod;
            }
            break;
    }

    size_t region[ 3 ] = { dstRegion[ 0 ], dstRegion[ 1 ], dstRegion[ 2 ] };

    // Now copy a subset to the destination image. This is the meat of what we're testing
    if (env.ctx.debugTrace)
    {
        if (env.ctx.testMipmaps)
        {
            log_info( " - Copying from %d,%d,%d,%d to %d,%d,%d,%d size %d,%d,%d\n", (int)sourcePos[ 0 ], (int)sourcePos[ 1 ], (int)sourcePos[ 2 ],(int)sourcePos[ 3 ],
                     (int)destPos[ 0 ], (int)destPos[ 1 ], (int)destPos[ 2 ],(int)destPos[ 3 ],
                     (int)regionSize[ 0 ], (int)regionSize[ 1 ], (int)regionSize[ 2 ] );
        }
        else
        {
            log_info( " - Copying from %d,%d,%d to %d,%d,%d size %d,%d,%d\n", (int)sourcePos[ 0 ], (int)sourcePos[ 1 ], (int)sourcePos[ 2 ],
                     (int)destPos[ 0 ], (int)destPos[ 1 ], (int)destPos[ 2 ],
                     (int)regionSize[ 0 ], (int)regionSize[ 1 ], (int)regionSize[ 2 ] );
        }
    }

    error = clEnqueueCopyImage(env.queue, buffers.srcImage, buffers.dstImage,
                               sourcePos, destPos, regionSize, 0, NULL, NULL);
    if( error != CL_SUCCESS )
    {
        log_error( "ERROR: Unable to copy image from pos %d,%d,%d to %d,%d,%d size %d,%d,%d! (%s)\n",
                  (int)sourcePos[ 0 ], (int)sourcePos[ 1 ], (int)sourcePos[ 2 ], (int)destPos[ 0 ], (int)destPos[ 1 ], (int)destPos[ 2 ],
                  (int)regionSize[ 0 ], (int)regionSize[ 1 ], (int)regionSize[ 2 ], IGetErrorString( error ) );
        return error;
    }

    // Construct the final dest image values to test against
    if (env.ctx.debugTrace) log_info(" - Host verification copy...\n");

    copy_image_data(srcImageInfo, dstImageInfo, buffers.srcData,
                    buffers.dstData, sourcePos, destPos, regionSize);

    // Map the destination image to verify the results with the host
    // copy. The contents of the entire buffer are compared.
    if (env.ctx.debugTrace) log_info(" - Mapping results...\n");

    size_t mappedRow, mappedSlice;
    void *mapped = (char *)clEnqueueMapImage(
        env.queue, buffers.dstImage, CL_TRUE, CL_MAP_READ, origin, region,
        &mappedRow, &mappedSlice, 0, NULL, NULL, &error);
    if (error != CL_SUCCESS)
    {
        log_error( "ERROR: Unable to map image for verification: %s\n", IGetErrorString( error ) );
        return error;
    }

    // Verify scanline by scanline, since the pitches are different
    char *sourcePtr = buffers.dstData;
    size_t cur_lod_offset = 0;
    char *destPtr = (char*)mapped;

    if (env.ctx.testMipmaps)
    {
        cur_lod_offset = compute_mip_level_offset(dstImageInfo, dst_lod);
        sourcePtr += cur_lod_offset;
    }

    size_t scanlineSize = dstImageInfo->width * get_pixel_size( dstImageInfo->format );
    size_t rowPitch = dstImageInfo->rowPitch;
    size_t slicePitch = dstImageInfo->slicePitch;
    size_t dst_height_lod = dstImageInfo->height;
    if (env.ctx.testMipmaps)
    {
        size_t dst_width_lod = (dstImageInfo->width >> dst_lod)?(dstImageInfo->width >> dst_lod) : 1;
        dst_height_lod = (dstImageInfo->height >> dst_lod)?(dstImageInfo->height >> dst_lod) : 1;
        scanlineSize = dst_width_lod * get_pixel_size(dstImageInfo->format);
        rowPitch = scanlineSize;
        slicePitch = rowPitch * dst_height_lod;
    }

    if (env.ctx.debugTrace) log_info(" - Scanline verification...\n");

    size_t thirdDim = 1;
    size_t secondDim = 1;

    switch (dstImageInfo->type)
    {
        case CL_MEM_OBJECT_IMAGE1D_ARRAY: {
            secondDim = dstImageInfo->arraySize;
            break;
        }
        case CL_MEM_OBJECT_IMAGE2D_ARRAY: {
            secondDim = dstImageInfo->height;
            thirdDim = dstImageInfo->arraySize;
            break;
        }
        case CL_MEM_OBJECT_IMAGE3D: {
            secondDim = dstImageInfo->height;
            thirdDim = dstImageInfo->depth;
            break;
        }
        case CL_MEM_OBJECT_IMAGE2D: {
            secondDim = dstImageInfo->height;
            break;
        }
        case CL_MEM_OBJECT_IMAGE1D_BUFFER:
        case CL_MEM_OBJECT_IMAGE1D: {
            break;
        }
        default: {
            log_error("ERROR: Unsupported Image type. \n");
            cl_int cleanup_error =
                cleanup_mapped_image(env.queue, buffers.dstImage, mapped);
            return (cleanup_error != CL_SUCCESS) ? cleanup_error : -1;
            break;
        }
    }
    if (env.ctx.testMipmaps)
    {
        switch (dstImageInfo->type)
        {
            case CL_MEM_OBJECT_IMAGE3D:
                thirdDim = (dstImageInfo->depth >> dst_lod) ? (dstImageInfo->depth >> dst_lod):1;
                /* Fallthrough */
            case CL_MEM_OBJECT_IMAGE2D:
            case CL_MEM_OBJECT_IMAGE2D_ARRAY:
                secondDim = (dstImageInfo->height >> dst_lod)
                    ? (dstImageInfo->height >> dst_lod)
                    : 1;
                break;
        }
    }
    for( size_t z = 0; z < thirdDim; z++ )
    {
        for( size_t y = 0; y < secondDim; y++ )
        {
            if( memcmp( sourcePtr, destPtr, scanlineSize ) != 0 )
            {
                // Find the first differing pixel
                size_t pixel_size = get_pixel_size( dstImageInfo->format );
                size_t where =
                    compare_scanlines(dstImageInfo, sourcePtr, destPtr);

                if (where < dstImageInfo->width)
                {
                    print_first_pixel_difference_error(
                        where, sourcePtr + pixel_size * where,
                        destPtr + pixel_size * where, dstImageInfo, y,
                        dstImageInfo->depth);
                    cl_int cleanup_error = cleanup_mapped_image(
                        env.queue, buffers.dstImage, mapped);
                    if (cleanup_error != CL_SUCCESS) return cleanup_error;
                    return -1;
                }
            }
            sourcePtr += rowPitch;
            if((dstImageInfo->type == CL_MEM_OBJECT_IMAGE1D_ARRAY || dstImageInfo->type == CL_MEM_OBJECT_IMAGE1D))
            destPtr += mappedSlice;
            else
            destPtr += mappedRow;
        }
        sourcePtr += slicePitch - rowPitch * dst_height_lod;
        destPtr += mappedSlice - mappedRow * dst_height_lod;
    }

    // Unmap the image.
    error = cleanup_mapped_image(env.queue, buffers.dstImage, mapped);
    if (error != CL_SUCCESS) return error;

    return 0;
}
