/* The C clients' check: EXPECT(what, got, want) counts a check and prints a FAIL line with both
 * values and the line when they differ; `checks` and `failures` make the summary line. */
#ifndef EXPECT_H
#define EXPECT_H
#include <stdio.h>

static int failures, checks;

#define EXPECT(what, got, want)                                                        \
    do {                                                                               \
        long long g_ = (long long)(got), w_ = (long long)(want);                       \
        checks++;                                                                      \
        if (g_ != w_) {                                                                \
            failures++;                                                                \
            printf("FAIL %s: got %lld, want %lld (line %d)\n", what, g_, w_, __LINE__); \
        }                                                                              \
    } while (0)

#endif
