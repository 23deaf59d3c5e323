// compare's Markdown table with hostile names in the reports: the table keeps its shape (one row
// per result, nine cells each), nothing injects a heading, HTML or a terminal escape, a huge name
// is cut, and the JSON output keeps the names as stored.
#include <gtest/gtest.h>

#include <algorithm>
#include <sstream>
#include <string>
#include <vector>

#include "base/common/untrusted_text.h"
#include "report_fixture.h"
#include "reports/compare/render.h"

namespace mish {
namespace {

using nlohmann::json;

const std::vector<std::string> kHostileBackends = {
    "evil|name\n# Injected heading",
    "<img src=x onerror=alert(1)>",
    "`tick` **bold** [link](http://example.com) $x$",
    "\x1b[2J\x1b[31mred\x07",
    "tab\there\r\nthere",
    "\\| escaped already",
    std::string(1'000'000, 'n'),
};

json hostile_report(const std::string& l2) {
  json report = make_report(noisy_samples(2.7, 1));
  const json model = report["results"][0];
  report["results"] = json::array();
  for (const std::string& backend : kHostileBackends) {
    json result = model;
    result["backend"] = backend;
    result["problem"]["distribution"] = "kernelbench|x\n## h";
    report["results"].push_back(result);
  }
  report["device"]["name"] = "GPU\n# fake";
  report["settings"]["l2"] = l2;
  return report;
}

// How many `c` in `line` are not backslash-escaped (preceded by an even number of backslashes):
// for '|', the separators of table cells.
int unescaped(const std::string& line, char c) {
  int count = 0;
  size_t backslashes = 0;
  for (const char at : line) {
    if (at == c && backslashes % 2 == 0) ++count;
    backslashes = at == '\\' ? backslashes + 1 : 0;
  }
  return count;
}

class CompareMarkdown : public ::testing::Test {
 protected:
  void SetUp() override {
    CompareSettings settings;
    outcome = compare_reports(summarize_report(hostile_report("flush\n# note heading"), "base"),
                              summarize_report(hostile_report("hot|<b>"), "new"), settings);
    outcome.base_label = "base|`x`.json";
    outcome.new_label = "new\n# h.json";
    markdown = to_markdown(outcome, settings);
    std::istringstream in(markdown);
    for (std::string line; std::getline(in, line);) lines.push_back(line);
  }

  CompareOutcome outcome;
  std::string markdown;
  std::vector<std::string> lines;
};

TEST_F(CompareMarkdown, TableKeepsItsShape) {
  ASSERT_EQ(outcome.rows.size(), kHostileBackends.size());
  int rows = 0;
  for (const std::string& line : lines) {
    if (line.rfind("|", 0) != 0) continue;
    EXPECT_EQ(unescaped(line, '|'), 10) << line;
    ++rows;
  }
  EXPECT_EQ(rows, int(kHostileBackends.size()) + 2);  // header and separator lines
}

TEST_F(CompareMarkdown, NothingInjectsMarkupOrTerminalEscapes) {
  for (size_t i = 0; i < lines.size(); ++i) {
    if (i > 0) EXPECT_NE(lines[i].rfind("#", 0), 0u) << "a second heading: " << lines[i];
    EXPECT_EQ(lines[i].find('<'), std::string::npos) << lines[i];
    EXPECT_EQ(unescaped(lines[i], '`'), 0) << lines[i];
  }
  for (char c : markdown)
    EXPECT_FALSE((static_cast<unsigned char>(c) < 0x20 && c != '\n') || c == 0x7f)
        << "control character " << int(c);
  EXPECT_NE(markdown.find("evil\\|name\\n\\# Injected heading"), std::string::npos);
  EXPECT_NE(markdown.find("&lt;img src=x onerror=alert\\(1\\)&gt;"), std::string::npos);
  EXPECT_NE(markdown.find("\\\\\\| escaped already"), std::string::npos);
  EXPECT_NE(markdown.find("kernelbench\\|x\\n\\#\\# h"), std::string::npos);
}

TEST_F(CompareMarkdown, NotesAreOneEscapedLineEach) {
  bool found = false;
  for (const std::string& line : lines)
    if (line.rfind("> note: setting 'l2' differs", 0) == 0) {
      found = true;
      EXPECT_NE(line.find("flush\\\\n\\# note heading"), std::string::npos) << line;
      EXPECT_NE(line.find("hot\\|&lt;b&gt;"), std::string::npos) << line;
    }
  EXPECT_TRUE(found) << markdown;
}

TEST_F(CompareMarkdown, HugeNameIsCut) {
  EXPECT_LT(markdown.size(), 10'000u);
  EXPECT_NE(markdown.find(std::string(kNameEchoLimit, 'n') + "… (1000000 bytes)"),
            std::string::npos);
}

TEST_F(CompareMarkdown, JsonKeepsNamesAsStored) {
  const json result = to_json(outcome, CompareSettings{});
  std::vector<std::string> backends;
  for (const json& row : result["rows"]) backends.push_back(row["backend"]);
  for (const std::string& backend : kHostileBackends)
    EXPECT_NE(std::find(backends.begin(), backends.end(), backend), backends.end());
  EXPECT_EQ(result["new"], "new\n# h.json");
}

}  // namespace
}  // namespace mish
