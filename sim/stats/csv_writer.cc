#include "sim/stats/csv_writer.h"

#include <ostream>

namespace warpsim::stats {

std::string csv_field(std::string_view text) {
  if (text.find_first_of(",\"\r\n") == std::string_view::npos) return std::string(text);
  std::string out = "\"";
  for (char c : text) {
    if (c == '"') out += '"';
    out += c;
  }
  out += '"';
  return out;
}

void write_csv(const RunReport& report, std::ostream& out) {
  out << "kernel,metric,value,unit\n";
  for (const KernelReport& kernel : report.kernels) {
    const std::string kernel_field = csv_field(kernel.name);
    for (const auto* list : {&kernel.snapshot.metrics, &kernel.snapshot.stats}) {
      for (const Sample& sample : *list) {
        out << kernel_field << ',' << csv_field(sample.name) << ',' << to_exact_string(sample.value)
            << ',' << csv_field(sample.unit) << '\n';
      }
    }
  }
}

}  // namespace warpsim::stats
