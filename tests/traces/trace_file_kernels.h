// Kernels and helpers shared by the trace-file tests: hand-written edge cases (empty warps,
// all-zero masks, single-lane accesses, 5 sources, uniform and predicate registers, GMMA commit,
// TMA, register values, second immediates, clusters, line numbers), reading a whole source back
// into memory, remapping opcode ids between tables, and what an IR kernel looks like after an
// Accel-Sim round trip (the fields that format carries).
#pragma once

#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "traces/in_memory_source.h"

namespace warpsim::traces::testing {

/// A Hopper kernel with every v6 feature and the edge cases; grid (2,1,1) in clusters of 2.
KernelTrace edge_case_kernel();
/// An Ampere kernel with line numbers and plain loads and stores, as version-4 traces have.
KernelTrace line_info_kernel();

/// Every remaining kernel of `source`, with its CTAs.
std::vector<KernelTrace> read_all(KernelSource& source);

/// Rewrites the opcode ids of `cta` from `from`'s ids to `to`'s (by mnemonic).
void remap_opcodes(CtaTrace& cta, const OpcodeTable& from, const OpcodeTable& to);

/// `kernel` as an Accel-Sim writer and reader carry it: launch fields normalised, guards and
/// predicated_off dropped, pools rebuilt in reading order.
KernelTrace accelsim_projection(const KernelTrace& kernel);

/// Expects every launch field of `actual` to equal `expected`'s (the opcode tables aside).
void expect_same_info(const KernelInfo& expected, const KernelInfo& actual);

/// Expects equal kernels: launch fields, then every CTA (opcodes compared by mnemonic).
void expect_same_kernel(const KernelTrace& expected, const KernelTrace& actual);

/// A fresh, empty directory under the test temp dir.
std::string temp_dir(const std::string& name);

}  // namespace warpsim::traces::testing
