// `warpsim arch`: lists the architecture presets with figures derived from each description, shows
// one resolved description (text format or JSON), and compares two descriptions field by field.
#include <google/protobuf/text_format.h>
#include <google/protobuf/util/json_util.h>

#include <cstdio>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "arch/derived.h"
#include "arch/diff.h"
#include "arch/error.h"
#include "arch/loader.h"
#include "arch/presets.h"
#include "sim/cli/command.h"
#include "sim/cli/options.h"
#include "sim/stats/json_writer.h"

namespace warpsim::cli {
namespace {

constexpr const char* kNone = "—";
constexpr const char* kSetHelp =
    "override a field, e.g. sm.count=144, tensor.dense_flops_per_clk_per_sm[fp8]=16384, "
    "l1.shared_carveout_kb=[0,64,228] (repeatable; see arch/README.md)";

const Usage kArchUsage{
    "warpsim arch list | show <arch> [--set path=value ...] [--json] | diff <a> <b> [--set ...]",
    "Architecture descriptions. <arch> is a preset name (nvidia/h200), a short name or alias\n"
    "(h200, h100, b200, a100, mi300x) or a path to a .textproto file.\n\n"
    "actions:\n"
    "  list   one line per preset with figures derived from its description\n"
    "  show   the resolved description (inheritance merged, overrides applied)\n"
    "  diff   the fields that differ between two descriptions\n\n"
    "Run 'warpsim arch <action> --help' for an action's options."};

std::string fixed(double value, int decimals) {
  char text[64];
  std::snprintf(text, sizeof(text), "%.*f", decimals, value);
  return text;
}

// Display width of UTF-8 text: one column per code point.
std::size_t width(const std::string& text) {
  std::size_t columns = 0;
  for (const unsigned char c : text) columns += (c & 0xC0) != 0x80 ? 1 : 0;
  return columns;
}

// Prints rows as columns separated by two spaces; the first column left-aligned, others right.
void print_table(std::ostream& os, const std::vector<std::vector<std::string>>& rows) {
  std::vector<std::size_t> widths;
  for (const auto& row : rows) {
    widths.resize(std::max(widths.size(), row.size()), 0);
    for (std::size_t i = 0; i < row.size(); ++i) widths[i] = std::max(widths[i], width(row[i]));
  }
  for (const auto& row : rows) {
    std::string line;
    for (std::size_t i = 0; i < row.size(); ++i) {
      const std::string pad(widths[i] - width(row[i]), ' ');
      line += i == 0 ? row[i] + pad : "  " + pad + row[i];
    }
    while (!line.empty() && line.back() == ' ') line.pop_back();
    os << line << "\n";
  }
}

std::string tflops(const arch::Spec& spec, arch::Tensor::DataType type) {
  const std::optional<double> peak = arch::peak_dense_tensor_tflops(spec, type);
  return peak ? fixed(*peak, 1) : kNone;
}

int list_action(const Args& args, CommandIo& io) {
  const Usage usage{
      "warpsim arch list",
      "One line per preset: SMs (CUs), SM clock, L2 and memory-side cache sizes, HBM\n"
      "peak bandwidth and dense FP16 / FP8 tensor peaks, all computed from the\n"
      "description (peaks at the vendor's peak clock). \"—\" where there is none."};
  if (!parse_args(args, {}, {}, usage, io)) return kExitOk;
  std::vector<std::vector<std::string>> rows = {{"preset", "GPU", "SMs", "SM MHz", "L2 MiB",
                                                 "mem-side MiB", "HBM TB/s", "FP16 TFLOP/s",
                                                 "FP8 TFLOP/s"}};
  for (const std::string& name : arch::preset_names()) {
    const arch::Spec spec = arch::load_spec(name).spec;
    rows.push_back(
        {name, spec.name(), std::to_string(spec.sm().count()), fixed(spec.clocks().sm_mhz(), 0),
         fixed(static_cast<double>(arch::l2_size_bytes(spec)) / (1 << 20), 1),
         spec.has_memory_side_cache()
             ? fixed(static_cast<double>(spec.memory_side_cache().size_bytes()) / (1 << 20), 1)
             : kNone,
         fixed(arch::hbm_bandwidth_tb_per_s(spec), 2), tflops(spec, arch::Tensor::FP16),
         tflops(spec, arch::Tensor::FP8)});
  }
  print_table(io.out, rows);
  return kExitOk;
}

std::vector<std::string> strings(const po::variables_map& vm, const char* name) {
  return vm.count(name) ? vm[name].as<std::vector<std::string>>() : std::vector<std::string>();
}

int show_action(const Args& args, CommandIo& io) {
  po::options_description options("options");
  options.add_options()("arch", po::value<std::string>()->required(),
                        "preset, alias or .textproto path")(
      "set", po::value<std::vector<std::string>>()->composing(), kSetHelp)(
      "json", po::bool_switch(),
      "print JSON (proto field names, every set field) instead of "
      "text format");
  po::positional_options_description positional;
  positional.add("arch", 1);
  const Usage usage{"warpsim arch show <arch> [--set path=value ...] [--json]",
                    "Prints the resolved description: inheritance merged, overrides applied,\n"
                    "consistency checked."};
  const auto vm = parse_args(args, options, positional, usage, io);
  if (!vm) return kExitOk;
  const std::vector<std::string> overrides = strings(*vm, "set");
  const arch::LoadedSpec loaded = arch::load_spec((*vm)["arch"].as<std::string>(), overrides);
  if ((*vm)["json"].as<bool>()) {
    google::protobuf::util::JsonPrintOptions json;
    json.add_whitespace = true;
    json.preserve_proto_field_names = true;
    json.always_print_primitive_fields = true;
    io.out << stats::sorted_json(loaded.spec, json) << "\n";
    return kExitOk;
  }
  io.out << "# " << loaded.source << ", resolved by warpsim arch show";
  for (const auto& expression : overrides) io.out << " --set '" << expression << "'";
  io.out << "\n";
  std::string text;
  google::protobuf::TextFormat::PrintToString(loaded.spec, &text);
  io.out << text;
  return kExitOk;
}

int diff_action(const Args& args, CommandIo& io) {
  po::options_description options("options");
  options.add_options()("a", po::value<std::string>()->required(), "first architecture")(
      "b", po::value<std::string>()->required(), "second architecture")(
      "set", po::value<std::vector<std::string>>()->composing(),
      "override a field on both sides (repeatable)")(
      "set-a", po::value<std::vector<std::string>>()->composing(),
      "override a field of <a> only (repeatable)")(
      "set-b", po::value<std::vector<std::string>>()->composing(),
      "override a field of <b> only (repeatable), e.g. diff h200 h200 --set-b sm.count=144");
  po::positional_options_description positional;
  positional.add("a", 1).add("b", 1);
  const Usage usage{"warpsim arch diff <a> <b> [--set path=value ...] [--set-a ...] [--set-b ...]",
                    "Prints each field whose resolved value differs, with both values;\n"
                    "\"(unset)\" where a description lacks the field."};
  const auto vm = parse_args(args, options, positional, usage, io);
  if (!vm) return kExitOk;
  std::vector<std::string> set_a = strings(*vm, "set");
  std::vector<std::string> set_b = set_a;
  for (const auto& expression : strings(*vm, "set-a")) set_a.push_back(expression);
  for (const auto& expression : strings(*vm, "set-b")) set_b.push_back(expression);
  const arch::LoadedSpec a = arch::load_spec((*vm)["a"].as<std::string>(), set_a);
  const arch::LoadedSpec b = arch::load_spec((*vm)["b"].as<std::string>(), set_b);
  const std::vector<arch::FieldDifference> differences = arch::diff_specs(a.spec, b.spec);
  if (differences.empty()) {
    io.out << "no differences between " << a.source << " and " << b.source << "\n";
    return kExitOk;
  }
  std::vector<std::vector<std::string>> rows = {{"field", a.source, b.source}};
  for (const auto& difference : differences) {
    rows.push_back({difference.path, difference.a, difference.b});
  }
  print_table(io.out, rows);
  return kExitOk;
}

}  // namespace

int arch_command(const Args& args, CommandIo& io) {
  if (args.empty()) {
    throw InputError("missing action (list, show or diff)\nusage: " + kArchUsage.synopsis);
  }
  const std::string& action = args.front();
  if (action == "--help" || action == "-h" || action == "help") {
    print_usage(io.out, kArchUsage, po::options_description());
    return kExitOk;
  }
  const Args rest(args.begin() + 1, args.end());
  if (action == "list") return list_action(rest, io);
  if (action == "show") return show_action(rest, io);
  if (action == "diff") return diff_action(rest, io);
  throw InputError("unknown action '" + action +
                   "'; expected list, show or diff\nusage: " + kArchUsage.synopsis);
}

}  // namespace warpsim::cli
