// The parameters of a reference point that its workload model declares: twins record derived
// parameters too (e.g. the pointer chase's hops), which the model does not take.
#pragma once

#include <string>
#include <vector>

#include "workloads/workload.h"

namespace warpsim::cli {

inline std::vector<std::string> model_params(const workloads::Workload& model,
                                             const std::vector<std::string>& params) {
  std::vector<std::string> out;
  for (const std::string& kv : params) {
    const std::string key = kv.substr(0, kv.find('='));
    for (const auto& spec : model.params()) {
      if (spec.name == key) out.push_back(kv);
    }
  }
  return out;
}

}  // namespace warpsim::cli
