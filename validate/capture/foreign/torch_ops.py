"""Kernels warpsim's authors did not write: common PyTorch operations (cuBLAS, cuDNN, PyTorch's
own CUDA kernels), each run once after a warm-up so that Nsight Compute profiles one launch of
each (capture.sh filters on the NVTX range "measure"; the ops print their names in launch order). Sizes are chosen so that every kernel runs
tens of microseconds or more on an H200."""
import torch
import torch.nn.functional as F

torch.manual_seed(0)
dev = "cuda"


def ops():
    a16 = torch.randn(2048, 2048, device=dev, dtype=torch.bfloat16)
    b16 = torch.randn(2048, 2048, device=dev, dtype=torch.bfloat16)
    a32 = torch.randn(1024, 1024, device=dev)
    b32 = torch.randn(1024, 1024, device=dev)
    x = torch.randn(16 * 1024 * 1024, device=dev)
    y = torch.randn(16 * 1024 * 1024, device=dev)
    rows = torch.randn(4096, 1024, device=dev)
    m = torch.randn(4096, 4096, device=dev)
    img = torch.randn(32, 64, 56, 56, device=dev)
    w = torch.randn(64, 64, 3, 3, device=dev)
    q = torch.randn(8, 16, 1024, 64, device=dev, dtype=torch.bfloat16)
    k = torch.randn(8, 16, 1024, 64, device=dev, dtype=torch.bfloat16)
    v = torch.randn(8, 16, 1024, 64, device=dev, dtype=torch.bfloat16)
    ln_w = torch.ones(1024, device=dev)
    ln_b = torch.zeros(1024, device=dev)
    idx = torch.randint(0, 50000, (8192,), device=dev)
    table = torch.randn(50000, 512, device=dev)
    s = torch.randn(1 << 20, device=dev)
    return [
        ("mm_bf16_2048", lambda: a16 @ b16),
        ("mm_fp32_1024", lambda: a32 @ b32),
        ("add_16m", lambda: x + y),
        ("gelu_16m", lambda: F.gelu(x)),
        ("sum_16m", lambda: x.sum()),
        ("softmax_4096x1024", lambda: torch.softmax(rows, dim=1)),
        ("layer_norm_4096x1024", lambda: F.layer_norm(rows, (1024,), ln_w, ln_b)),
        ("transpose_4096", lambda: m.t().contiguous()),
        ("conv2d_3x3", lambda: F.conv2d(img, w, padding=1)),
        ("sdpa_bf16", lambda: F.scaled_dot_product_attention(q, k, v)),
        ("embedding_gather", lambda: F.embedding(idx, table)),
        ("cumsum_1m", lambda: torch.cumsum(s, 0)),
    ]


def main():
    table = ops()
    for _, f in table:  # warm-up: library handles, autotuning, lazy module loading
        f()
    torch.cuda.synchronize()
    for name, f in table:
        print("op", name, flush=True)
        torch.cuda.nvtx.range_push("measure")
        f()
        torch.cuda.synchronize()
        torch.cuda.nvtx.range_pop()


if __name__ == "__main__":
    main()
