// The source page of an Nsight Compute CSV export (`ncu --csv --page source --print-source sass`,
// and the combined `cuda,sass` view): per kernel, one row per SASS instruction with its absolute
// PC ("Address"), its text ("@P0 EXIT") and the per-instruction counters (executed warp and thread
// instructions, theoretical L2 sectors, shared wavefronts, sampled stall reasons), found by column
// name. CUDA source lines of the combined view (rows without an address) are skipped.
// Left out: the CUDA/PTX-only views and per-line aggregation.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace warpsim::traces::ncu {

/// One SASS instruction row.
struct SourceRow {
  uint64_t address = 0;             ///< Absolute PC.
  std::string sass;                 ///< The instruction text, leading blanks removed.
  size_t line = 0;                  ///< Line in the file.
  std::vector<std::string> fields;  ///< Every field of the row, by the kernel's column index.
};

/// One kernel's listing.
struct SourceKernel {
  std::string name;  ///< From the "Kernel Name" (or "Function Name") line.
  std::shared_ptr<const std::map<std::string, size_t, std::less<>>> columns;  ///< Name → index.
  std::vector<SourceRow> rows;  ///< In address order as printed.

  /// The text of `column` in `row`, nullopt when the page has no such column.
  std::optional<std::string_view> text(const SourceRow& row, std::string_view column) const;
  /// The number in `column` of `row`; nullopt when absent, "-" or not a number.
  std::optional<double> number(const SourceRow& row, std::string_view column) const;
  /// The function's first address (the smallest), 0 when there are no rows.
  uint64_t base_address() const;
};

/// A parsed source page: listings in file order (ncu prints one per profiled launch, some twice).
struct SourcePage {
  std::string source;
  std::vector<SourceKernel> kernels;
};

/// The listing of `name` (compared as ncu_display_name prints it) whose executed warp instructions
/// sum to `inst_executed` (ncu prints some launches' listings twice and several launches share a
/// name), or nullptr.
const SourceKernel* find_listing(const SourcePage& page, std::string_view name,
                                 double inst_executed);

/// Every listing of `name` whose executed warp instructions sum to `inst_executed`, in file order.
std::vector<const SourceKernel*> find_listings(const SourcePage& page, std::string_view name,
                                               double inst_executed);

/// Parses a source page; InputError names `source`, the line and what was expected.
SourcePage parse_source_page(std::string_view text, const std::string& source);

}  // namespace warpsim::traces::ncu
