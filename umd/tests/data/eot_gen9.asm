(W) mov (8|M0) r127.0<1>:ud r0.0<8;8,1>:ud
(W) send (8|M0) null r127 0x27 0x02000010 {EOT}
