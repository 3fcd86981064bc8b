#include "sim/core/warp_scheduler.h"

#include <algorithm>
#include <array>

#include "arch/error.h"

namespace warpsim::core {
namespace {

using Factory = std::unique_ptr<WarpScheduler> (*)(const SmConfig&);

struct Registered {
  std::string_view name;
  Factory make;
};

constexpr std::array<Registered, 6> kPolicies = {{
    {"gto", &make_gto_scheduler},
    {"gto_drawn", &make_gto_drawn_scheduler},
    {"lrr", &make_lrr_scheduler},
    {"cta_rr", &make_cta_rr_scheduler},
    {"cta_rr_drawn", &make_cta_rr_drawn_scheduler},
    {"two_level", &make_two_level_scheduler},
}};

}  // namespace

std::vector<std::string> warp_scheduler_names() {
  std::vector<std::string> names;
  for (const Registered& r : kPolicies) names.emplace_back(r.name);
  std::sort(names.begin(), names.end());
  return names;
}

std::unique_ptr<WarpScheduler> make_warp_scheduler(const SmConfig& config) {
  for (const Registered& r : kPolicies) {
    if (r.name == config.scheduler) return r.make(config);
  }
  std::string known;
  for (const std::string& name : warp_scheduler_names()) {
    known += (known.empty() ? "" : ", ") + name;
  }
  throw InputError("SM config: field 'sm.scheduler' names an unknown warp-scheduler policy '" +
                   config.scheduler + "' (known: " + known + ")");
}

}  // namespace warpsim::core
