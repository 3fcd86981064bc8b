kernel-1-ctx_0x55d0c8.traceg
