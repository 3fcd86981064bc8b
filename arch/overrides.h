// `--set path=value` overrides of an architecture description, applied through protobuf
// reflection, so every field of arch.proto can be overridden without code per field.
//
// Syntax (see arch/README.md):
//   sm.count=144                                   nested singular fields, dot-separated
//   tensor.dense_flops_per_clk_per_sm[fp8]=16384   map entry by key (created when absent)
//   tensor.shapes[wgmma.m64n64k16.f16].n=64        field of a map entry whose value is a message
//   l1.shared_carveout_kb=[0,8,16,100]             a list replaces the whole repeated field
//   l1.shared_carveout_kb[2]=32                    one element of a repeated field
//   launch.cache_start=WARM                        enums by name; bools true/false (or 1/0)
// Integers must fit the field's type; doubles must be finite. Anything else throws InputError
// naming the --set argument, the failing path segment and what was expected.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "arch/arch.pb.h"
#include "arch/provenance.h"

namespace warpsim::arch {

/// Applies one `path=value` expression to `spec`. When `provenance` is given, records the path as
/// set by this --set. Throws InputError on a malformed expression, unknown path or bad value.
void apply_override(Spec& spec, std::string_view expression, Provenance* provenance = nullptr);

/// Applies each expression in order (a later one wins).
void apply_overrides(Spec& spec, const std::vector<std::string>& expressions,
                     Provenance* provenance = nullptr);

}  // namespace warpsim::arch
