//===- LspTest.cpp - The language server's conversions ---------------------===//
//
// Byte columns to UTF-16 positions and back, URIs to paths and back, and the
// driver's JSON report to diagnostics and edits: the parts of the server that
// are pure functions. The protocol itself is tested end to end in
// test/lit/lsp/.
//
//===----------------------------------------------------------------------===//

#include "Findings.h"
#include "OutputFormats.h"
#include "TextPositions.h"
#include "Uri.h"

#include "gtest/gtest.h"

using namespace shmem;
using namespace shmem::lsp;

namespace {

TEST(LspPositions, ByteColumnsBecomeUtf16Units) {
  // "é" is two bytes and one UTF-16 unit; "𝄞" four bytes and two units.
  LineTable T("ab\n\xC3\xA9x = s[i];\n\xF0\x9D\x84\x9Ey\n");
  EXPECT_EQ(T.lines(), 4u);
  Position P = T.position(T.offsetOf(2, 3)); // The byte after "é".
  EXPECT_EQ(P.Line, 1u);
  EXPECT_EQ(P.Character, 1u);
  P = T.position(T.offsetOf(3, 5)); // "y", after the 4-byte character.
  EXPECT_EQ(P.Line, 2u);
  EXPECT_EQ(P.Character, 2u);
  // And back: the UTF-16 position names the same byte.
  EXPECT_EQ(T.offsetOf(Position{2, 2}), T.offsetOf(3, 5));
  EXPECT_EQ(T.offsetOf(Position{1, 1}), T.offsetOf(2, 3));
  // Past the end of a line or the text: clamped, never out of range.
  EXPECT_EQ(T.offsetOf(Position{0, 99}), 2u);
  EXPECT_EQ(T.offsetOf(Position{99, 0}), T.offsetOf(99, 1));
}

TEST(LspPositions, ARangeCoversTheTokenAndIsNeverEmpty) {
  LineTable T("  tile[x] = 1;\nend\n");
  Range R = T.tokenAt(1, 3);
  EXPECT_EQ(R.Start.Character, 2u);
  EXPECT_EQ(R.End.Character, 6u);
  R = T.tokenAt(1, 7); // '[': one character.
  EXPECT_EQ(R.End.Character - R.Start.Character, 1u);
  R = T.tokenAt(2, 4); // At the line's end: its last character.
  EXPECT_EQ(R.Start.Character, 2u);
  EXPECT_EQ(R.End.Character, 3u);
  R = T.tokenAt(4, 1); // The empty last line.
  EXPECT_LT(R.Start, R.End);
}

TEST(LspUri, PathsRoundTripThroughUris) {
  EXPECT_EQ(fileUri("/a b/c#d.cu"), "file:///a%20b/c%23d.cu");
  EXPECT_EQ(pathFromUri("file:///a%20b/c%23d.cu"), "/a b/c#d.cu");
  EXPECT_EQ(pathFromUri("file://localhost/x.cu"), "/x.cu");
  EXPECT_EQ(pathFromUri("untitled:Untitled-1"), std::nullopt);
  EXPECT_EQ(pathFromUri("file://server/share/x.cu"), std::nullopt);
  EXPECT_EQ(pathFromUri("file:///bad%2"), std::nullopt);
}

llvm::json::Value parse(llvm::StringRef S) {
  llvm::Expected<llvm::json::Value> V = llvm::json::parse(S);
  EXPECT_TRUE(bool(V));
  return V ? std::move(*V) : llvm::json::Value(nullptr);
}

TEST(LspFindings, AFindingBecomesADiagnosticWithItsFix) {
  std::string Text = "__shared__ float t[32][32];\nx = t[i][0];\n";
  llvm::json::Value R = parse(R"([{"kind": "finding",
    "check": "shmem-bank-conflict", "level": "warning", "file": "/k.cu",
    "line": 2, "column": 5, "message": "32-way",
    "notes": [{"file": "/k.cu", "line": 1, "column": 18, "message": "pad"}],
    "fixes": [{"file": "/k.cu", "offset": 23, "length": 2, "line": 1,
               "column": 24, "replacement": "33"}],
    "detail": "lane -> bank\n"}])");
  std::vector<DocumentFinding> F = readReport(R, "/k.cu", Text);
  ASSERT_EQ(F.size(), 1u);
  EXPECT_EQ(F[0].Code, "shmem-bank-conflict");
  EXPECT_EQ(F[0].Level, Severity::Warning);
  EXPECT_EQ(F[0].Where.Start.Line, 1u);
  EXPECT_EQ(F[0].Where.Start.Character, 4u);
  EXPECT_EQ(F[0].Where.End.Character, 5u);
  ASSERT_EQ(F[0].Fix.size(), 1u);
  EXPECT_EQ(F[0].FixTitle, "shmem-lint: replace '32' with '33'");
  EXPECT_EQ(F[0].Fix[0].Uri, "file:///k.cu");
  EXPECT_EQ(F[0].Fix[0].Where.Start.Character, 23u);
  EXPECT_EQ(F[0].Fix[0].Where.End.Character, 25u);
  const llvm::json::Object *D = F[0].Diagnostic.getAsObject();
  ASSERT_TRUE(D);
  EXPECT_EQ(D->getInteger("severity"), 2);
  EXPECT_EQ(D->getString("code"), "shmem-bank-conflict");
  ASSERT_TRUE(D->getArray("relatedInformation"));
  EXPECT_EQ(D->getArray("relatedInformation")->size(), 1u);
  EXPECT_NE(hoverText(F[0]).find("```text\nlane -> bank\n```"),
            std::string::npos);
}

TEST(LspFindings, ErrorsGapsAndBrokenFixes) {
  std::string Text = "int x;\n";
  llvm::json::Value R = parse(R"([
    {"kind": "finding", "check": "shmem-race", "level": "error",
     "file": "/k.cu", "line": 1, "column": 1, "message": "race",
     "fixes": [{"file": "/k.cu", "offset": 0, "length": 0,
                "replacement": "a"},
               {"file": "/k.cu", "length": 1, "replacement": "b"}]},
    {"kind": "gap", "for_check": "shmem-race", "file": "/k.cu", "line": 1,
     "column": 1, "message": "call not followed"}])");
  std::vector<DocumentFinding> F = readReport(R, "/k.cu", Text);
  ASSERT_EQ(F.size(), 2u);
  EXPECT_EQ(F[0].Level, Severity::Error); // --warnings-as-errors
  EXPECT_TRUE(F[0].Fix.empty());          // All edits or none.
  EXPECT_EQ(F[1].Level, Severity::Information);
  EXPECT_EQ(F[1].Message,
            "not fully analysed: call not followed (shmem-race)");
  // Not a report at all: nothing, rather than a crash.
  EXPECT_TRUE(readReport(parse("{}"), "/k.cu", Text).empty());
}

TEST(LspFindings, AFailureIsShownAtItsFirstErrorInTheDocument) {
  std::string Text = "a\nint y = ;\n";
  DocumentFinding F = failure(
      "see the log",
      "/other.h:1:1: error: elsewhere\n/k.cu:2:9: error: expected expression\n",
      "/k.cu", Text);
  // The first error is in another file: the message says it, at the top.
  EXPECT_EQ(F.Message, "shmem-lint could not analyse this file: elsewhere");
  EXPECT_EQ(F.Where.Start.Line, 0u);
  F = failure("see the log", "/k.cu:2:9: error: expected expression\n",
              "/k.cu", Text);
  EXPECT_EQ(F.Where.Start.Line, 1u);
  EXPECT_EQ(F.Where.Start.Character, 8u);
  EXPECT_EQ(F.Level, Severity::Error);
  F = failure("see the log", "", "/k.cu", Text);
  EXPECT_EQ(F.Message, "shmem-lint could not analyse this file: see the log");
}

} // namespace
