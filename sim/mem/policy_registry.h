// A name -> factory table for replaceable policies (address hash, replacement, DRAM scheduler,
// DRAM address mapping). Each policy family owns one registry, filled with its built-in policies
// on first use; further policies may be added at start-up. A config names the policy by string;
// the string is looked up once, when the unit is built, never on the hot path.
//
// Left out: thread safety of `add` (register before simulations start) and unregistering.
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "arch/error.h"

namespace warpsim::mem {

/// Factories of `Interface` keyed by name; `Args` are the factory's parameters.
template <class Interface, class... Args>
class PolicyRegistry {
 public:
  using Factory = std::function<std::unique_ptr<Interface>(Args...)>;

  /// `family` names the policy family in error messages ("address hash").
  explicit PolicyRegistry(std::string family) : family_(std::move(family)) {}

  /// Registers `factory` under `name`. Throws warpsim::InternalError when the name is taken.
  void add(std::string name, Factory factory) {
    if (factories_.contains(name)) {
      throw InternalError(family_ + " policy '" + name + "' is registered twice");
    }
    factories_.emplace(std::move(name), std::move(factory));
  }

  /// Builds the policy called `name`. Throws warpsim::InputError naming the config `field`, the
  /// unknown name and the known ones when there is no such policy.
  std::unique_ptr<Interface> create(std::string_view name, std::string_view field,
                                    Args... args) const {
    const auto it = factories_.find(std::string(name));
    if (it == factories_.end()) {
      std::string known;
      for (const auto& [key, value] : factories_) known += (known.empty() ? "" : ", ") + key;
      throw InputError(std::string(field) + ": unknown " + family_ + " '" + std::string(name) +
                       "'; expected one of: " + known);
    }
    return it->second(std::forward<Args>(args)...);
  }

  /// True when a policy called `name` is registered.
  bool contains(std::string_view name) const { return factories_.contains(std::string(name)); }

  /// The registered names, sorted.
  std::vector<std::string> names() const {
    std::vector<std::string> out;
    for (const auto& [key, value] : factories_) out.push_back(key);
    return out;
  }

 private:
  std::string family_;
  std::map<std::string, Factory> factories_;
};

}  // namespace warpsim::mem
