L0:
(W) jmpi (1|M0) L0
