// Two instructions, then a loop on itself: a thread that never ends, caught by the watchdog
// at the jmpi (not at offset 0).
(W) mov (8|M0) r10.0<1>:ud 0x0:ud
(W) mov (8|M0) r11.0<1>:ud 0x1:ud
L_loop:
(W) jmpi (1|M0) L_loop
