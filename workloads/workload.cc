#include "workloads/workload.h"

#include <charconv>

#include "arch/error.h"
#include "workloads/models.h"

namespace warpsim::workloads {

int64_t Params::get(std::string_view name) const {
  for (const auto& [k, v] : values_) {
    if (k == name) return v;
  }
  throw InternalError("workload parameter '" + std::string(name) + "' was not declared");
}

std::string Params::to_string() const {
  std::string s;
  for (const auto& [k, v] : values_) s += (s.empty() ? "" : ";") + k + "=" + std::to_string(v);
  return s;
}

Params Params::parse(const std::vector<ParamSpec>& specs, const std::vector<std::string>& args,
                     const std::string& model) {
  Params p;
  for (const ParamSpec& s : specs) p.values_.emplace_back(s.name, s.default_value);
  for (const std::string& arg : args) {
    const auto eq = arg.find('=');
    if (eq == std::string::npos || eq == 0) {
      throw InputError("--param " + arg + ": expected name=value for workload " + model);
    }
    const std::string name = arg.substr(0, eq);
    const std::string text = arg.substr(eq + 1);
    const ParamSpec* spec = nullptr;
    for (const ParamSpec& s : specs) {
      if (s.name == name) spec = &s;
    }
    if (spec == nullptr) {
      std::string known;
      for (const ParamSpec& s : specs) known += (known.empty() ? "" : ", ") + s.name;
      throw InputError("--param " + arg + ": workload " + model + " has no parameter '" + name +
                       "' (known: " + known + ")");
    }
    int64_t v = 0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
    if (ec != std::errc() || end != text.data() + text.size()) {
      throw InputError("--param " + arg + ": expected an integer value");
    }
    if (v < spec->min_value) {
      throw InputError("--param " + arg + ": " + name + " must be at least " +
                       std::to_string(spec->min_value));
    }
    for (auto& [k, value] : p.values_) {
      if (k == name) value = v;
    }
  }
  return p;
}

const std::vector<std::unique_ptr<Workload>>& all_workloads() {
  static const std::vector<std::unique_ptr<Workload>> models = make_models();
  return models;
}

const Workload& find_workload(std::string_view name) {
  for (const auto& w : all_workloads()) {
    if (w->name() == name) return *w;
  }
  std::string known;
  for (const auto& w : all_workloads()) known += (known.empty() ? "" : ", ") + std::string(w->name());
  throw InputError("no workload named '" + std::string(name) + "' (known: " + known + ")");
}

}  // namespace warpsim::workloads
