"""Kernels warpsim's authors did not write: common PyTorch operations (cuBLAS, cuDNN, PyTorch's
own CUDA kernels), each run once after a warm-up so that Nsight Compute profiles one launch of
each (capture.sh filters on the NVTX range "measure"; the ops print their names in launch order).
Sizes are chosen so that every kernel runs tens of microseconds or more on an H200.

Two sets: `first` (the default; GEMMs, elementwise, reductions, rows, transpose, convolution,
attention, gather, scan) and `second` (half-precision and batched GEMMs, pooling, batch norm,
cross entropy, concatenation, permutation, RMS norm, atomics, upsampling, top-k):
    python3 torch_ops.py [first|second]"""
import sys

import torch
import torch.nn.functional as F

torch.manual_seed(0)
dev = "cuda"


def ops_first():
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


def ops_second():
    h = torch.randn(4096, 4096, device=dev, dtype=torch.float16)
    g = torch.randn(4096, 1024, device=dev, dtype=torch.float16)
    ba = torch.randn(32, 512, 512, device=dev, dtype=torch.bfloat16)
    bb = torch.randn(32, 512, 512, device=dev, dtype=torch.bfloat16)
    x = torch.randn(16 * 1024 * 1024, device=dev)
    y = torch.randn(16 * 1024 * 1024, device=dev)
    xh = torch.randn(16 * 1024 * 1024, device=dev, dtype=torch.float16)
    rows = torch.randn(4096, 1024, device=dev)
    m = torch.randn(4096, 4096, device=dev)
    img = torch.randn(32, 64, 56, 56, device=dev)
    bn_mean = torch.randn(64, device=dev)
    bn_var = torch.rand(64, device=dev) + 0.5
    bn_w = torch.randn(64, device=dev)
    bn_b = torch.randn(64, device=dev)
    logits = torch.randn(8192, 1000, device=dev)
    target = torch.randint(0, 1000, (8192,), device=dev)
    heads = torch.randn(8, 1024, 16, 64, device=dev, dtype=torch.bfloat16)
    rms_w = torch.ones(1024, device=dev)
    idx = torch.randint(0, 4096, (1 << 20,), device=dev)
    src = torch.randn(1 << 20, device=dev)
    acc = torch.zeros(4096, device=dev)
    return [
        ("mm_fp16_4096x1024", lambda: h @ g),
        ("bmm_bf16_32x512", lambda: torch.bmm(ba, bb)),
        ("relu_16m", lambda: F.relu(x)),
        ("exp_fp16_16m", lambda: torch.exp(xh)),
        ("where_16m", lambda: torch.where(x > 0, x, y)),
        ("sum_dim0_4096", lambda: m.sum(0)),
        ("argmax_4096x1024", lambda: rows.argmax(1)),
        ("max_pool2d_2x2", lambda: F.max_pool2d(img, 2)),
        ("adaptive_avg_pool2d_1", lambda: F.adaptive_avg_pool2d(img, 1)),
        ("batch_norm_eval",
         lambda: F.batch_norm(img, bn_mean, bn_var, bn_w, bn_b, training=False)),
        ("cross_entropy_8192x1000", lambda: F.cross_entropy(logits, target)),
        ("cat_2x16m", lambda: torch.cat([x, y])),
        ("permute_bf16", lambda: heads.permute(0, 2, 1, 3).contiguous()),
        ("rms_norm_4096x1024", lambda: F.rms_norm(rows, (1024,), rms_w)),
        ("index_add_1m", lambda: acc.index_add_(0, idx, src)),
        ("upsample_bilinear_2x", lambda: F.interpolate(img, scale_factor=2, mode="bilinear")),
        ("topk_4096x1024_k8", lambda: rows.topk(8, dim=1)),
    ]


SETS = {"first": ops_first, "second": ops_second}


def main():
    name = sys.argv[1] if len(sys.argv) > 1 else "first"
    if name not in SETS:
        sys.exit(f"torch_ops.py: unknown set '{name}' (expected one of: {', '.join(SETS)})")
    table = SETS[name]()
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
