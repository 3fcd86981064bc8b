// The context the consistency rules of checks.h run in: the description, where its fields were
// set, and the violations found so far, with helpers that quote a field's value and origin. Rule
// groups live in checks.cc (fields, memory) and checks_compute.cc (occupancy, units, tensor, placement).
#pragma once

#include <cstdint>
#include <initializer_list>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "arch/arch.pb.h"
#include "arch/provenance.h"

namespace warpsim::arch {

/// The singular field a dotted path names and the message holding it. The field is null when the
/// path is unknown or a message on the way is unset (then the field counts as unset).
std::pair<const google::protobuf::Message*, const google::protobuf::FieldDescriptor*> find_field(
    const google::protobuf::Message& root, std::string_view path);

class CheckContext {
 public:
  CheckContext(const Spec& spec, const Provenance& provenance)
      : spec_(spec), provenance_(provenance) {}

  const Spec& spec() const { return spec_; }
  std::vector<std::string>& violations() { return violations_; }

  /// Records a violation; `paths` are the fields involved, each quoted with where it was set.
  void fail(const std::string& what, std::initializer_list<std::string_view> paths);

  /// "path = value" for a set singular field (dotted path), "path (unset)" otherwise.
  std::string show(std::string_view path) const;

  /// Whether the singular field at a dotted path is set.
  bool has(std::string_view path) const;

  /// When both fields are set, `a` (value `va`) must not exceed `b` (value `vb`); `how` explains
  /// a scaled comparison.
  void expect_at_most(std::string_view a, std::uint64_t va, std::string_view b, std::uint64_t vb,
                      const std::string& how = "");

 private:
  const Spec& spec_;
  const Provenance& provenance_;
  std::vector<std::string> violations_;
};

/// Rule groups (checks_compute.cc).
void check_occupancy(CheckContext& c);
void check_functional_units(CheckContext& c);
void check_tensor(CheckContext& c);
void check_placement(CheckContext& c);

}  // namespace warpsim::arch
