kernel-1.traceg
