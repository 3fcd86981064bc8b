#include "traces/ncu/source_page.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cstdint>

#include "arch/error.h"
#include "traces/ncu/csv.h"
#include "traces/ncu/report.h"

namespace warpsim::traces::ncu {
namespace {

std::optional<uint64_t> parse_address(std::string_view t) {
  if (!t.starts_with("0x") && !t.starts_with("0X")) return std::nullopt;
  uint64_t v = 0;
  const auto [end, ec] = std::from_chars(t.data() + 2, t.data() + t.size(), v, 16);
  if (ec != std::errc() || end != t.data() + t.size() || t.size() == 2) return std::nullopt;
  return v;
}

// `name` as ncu_display_name prints it, without the namespace and plain class qualifiers
// ("at::native::", "cub::detail::scan::", "<unnamed>::"). The raw page names some kernels
// without their inner namespaces ("at::vectorized_elementwise_kernel<4, at::CUDAFunctor_add<
// float>, …>") where the source page has them all ("at::native::…"); qualifiers with template
// arguments ("sum_functor<float, float, float>::") are kept, as both pages print them.
std::string unqualified(std::string_view name) {
  const std::string display = ncu_display_name(name);
  std::string out;
  out.reserve(display.size());
  size_t i = 0;
  while (i < display.size()) {
    size_t j = i;
    if (display.compare(i, 10, "<unnamed>:") == 0) {
      j = i + 9;
    } else {
      while (j < display.size() &&
             (std::isalnum(static_cast<unsigned char>(display[j])) || display[j] == '_')) {
        ++j;
      }
    }
    const bool word = j > i;
    if (word && display.compare(j, 2, "::") == 0) {
      i = j + 2;  // a plain qualifier: dropped
      continue;
    }
    out.append(display, i, word ? j - i : 1);
    i = word ? j : i + 1;
  }
  return out;
}

double executed(const SourceKernel& k) {
  double total = 0;
  for (const SourceRow& r : k.rows) total += k.number(r, "Instructions Executed").value_or(0);
  return total;
}

}  // namespace

std::optional<std::string_view> SourceKernel::text(const SourceRow& row,
                                                   std::string_view column) const {
  if (!columns) return std::nullopt;
  const auto it = columns->find(column);
  if (it == columns->end() || it->second >= row.fields.size()) return std::nullopt;
  return std::string_view(row.fields[it->second]);
}

std::optional<double> SourceKernel::number(const SourceRow& row, std::string_view column) const {
  const auto t = text(row, column);
  return t ? parse_ncu_number(*t) : std::nullopt;
}

uint64_t SourceKernel::base_address() const {
  uint64_t base = rows.empty() ? 0 : rows.front().address;
  for (const SourceRow& r : rows) base = std::min(base, r.address);
  return base;
}

std::vector<const SourceKernel*> find_listings(const SourcePage& page, std::string_view name,
                                               double inst_executed) {
  std::vector<const SourceKernel*> out;
  for (const SourceKernel& k : page.kernels) {
    if (k.name != name && ncu_display_name(k.name) != ncu_display_name(name)) continue;
    if (executed(k) == inst_executed) out.push_back(&k);
  }
  if (!out.empty()) return out;
  // The same kernel named with fewer qualifiers on one page than the other.
  const std::string key = unqualified(name);
  for (const SourceKernel& k : page.kernels) {
    if (unqualified(k.name) == key && executed(k) == inst_executed) out.push_back(&k);
  }
  return out;
}

const SourceKernel* find_listing(const SourcePage& page, std::string_view name,
                                 double inst_executed) {
  const auto all = find_listings(page, name, inst_executed);
  return all.empty() ? nullptr : all.front();
}

SourcePage parse_source_page(std::string_view text, const std::string& source) {
  const std::vector<CsvRow> rows = parse_csv(text, source);
  SourcePage page;
  page.source = source;
  constexpr size_t kNone = SIZE_MAX;
  size_t c_address = kNone, c_sass = kNone;
  for (const CsvRow& row : rows) {
    const std::vector<std::string>& f = row.fields;
    if (f.empty() || (f.size() == 1 && f[0].empty())) continue;
    if (f[0] == "Kernel Name" || f[0] == "Function Name") {
      if (f.size() < 2) {
        throw InputError(source + ":" + std::to_string(row.line) + ": expected a kernel name");
      }
      SourceKernel k;
      k.name = f[1];
      page.kernels.push_back(std::move(k));
      c_address = kNone;
      continue;
    }
    if (f[0] == "File Path") continue;
    const auto it = std::find(f.begin(), f.end(), "Address");
    if (it != f.end()) {  // A header.
      if (page.kernels.empty()) {
        throw InputError(source + ":" + std::to_string(row.line) +
                         ": expected a \"Kernel Name\" line before the column header");
      }
      auto columns = std::make_shared<std::map<std::string, size_t, std::less<>>>();
      c_address = static_cast<size_t>(it - f.begin());
      for (size_t c = 0; c < f.size(); ++c) {
        if (!f[c].empty()) columns->emplace(f[c], c);
      }
      if (c_address + 1 >= f.size() || f[c_address + 1] != "Source") {
        throw InputError(source + ":" + std::to_string(row.line) +
                         ": expected a \"Source\" column right after \"Address\"");
      }
      c_sass = c_address + 1;
      (*columns)["Source"] = c_sass;
      page.kernels.back().columns = std::move(columns);
      continue;
    }
    if (c_address == kNone) {
      throw InputError(source + ":" + std::to_string(row.line) +
                       ": expected a \"Kernel Name\" line or an \"Address\",\"Source\" header, "
                       "found \"" +
                       f[0].substr(0, 40) + "\"");
    }
    if (c_sass >= f.size()) {
      throw InputError(source + ":" + std::to_string(row.line) + ": expected at least " +
                       std::to_string(c_sass + 1) + " fields, found " + std::to_string(f.size()));
    }
    if (f[c_address].empty() || f[c_address] == "-") continue;  // A CUDA line (combined view).
    const auto address = parse_address(f[c_address]);
    if (!address) {
      throw InputError(source + ":" + std::to_string(row.line) +
                       ": expected an address like 0x7fac177a0000, found \"" +
                       f[c_address].substr(0, 40) + "\"");
    }
    SourceRow r;
    r.address = *address;
    r.line = row.line;
    std::string_view sass = f[c_sass];
    while (!sass.empty() && sass.front() == ' ') sass.remove_prefix(1);
    r.sass = std::string(sass);
    r.fields = f;
    page.kernels.back().rows.push_back(std::move(r));
  }
  if (page.kernels.empty()) {
    throw InputError(source + ": expected a source page (a \"Kernel Name\" line), found none");
  }
  return page;
}

}  // namespace warpsim::traces::ncu
