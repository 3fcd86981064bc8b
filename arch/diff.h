// Field-by-field comparison of two architecture descriptions (google::protobuf::util::
// MessageDifferencer with a reporter), for `warpsim arch diff` and for reports that show what a
// sweep changed. Map entries compare by key; a list compares as one value; a submessage present on
// one side only expands into its fields.
#pragma once

#include <string>
#include <vector>

#include "arch/arch.pb.h"

namespace warpsim::arch {

/// One field that differs. Values are in text format; "(unset)" where a side lacks the field.
struct FieldDifference {
  std::string path;  ///< --set syntax: "hbm.channels", "tensor.dense_flops_per_clk_per_sm[fp8]"
  std::string a;
  std::string b;
};

/// The fields that differ between `a` and `b`, in schema order.
std::vector<FieldDifference> diff_specs(const Spec& a, const Spec& b);

}  // namespace warpsim::arch
