(W) mov (8|M0) r127.0<1>:ud r0.0<8;8,1>:ud
(W) send.gtwy (8|M0) null r127 null:0 0x0 0x02000010 {EOT}
