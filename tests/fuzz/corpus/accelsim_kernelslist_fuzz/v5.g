MemcpyHtoD,0x0000700000000000,4096
kernel-1.traceg.xz
MemcpyHtoD,0x0000700000001000,64
kernel-2.traceg
# a comment line the parser ignores
