// Checks c_api/coverage.tsv against the headers: the C ABI mirrors the C++ API by hand, and this is what
// notices when one side moves without the other.
//   platformpp_c_api_coverage <include/platformpp> <platformpp_c.h> <coverage.tsv>
//   platformpp_c_api_coverage --list <include/platformpp>    (prints what the scanner finds, for new rows)
// Fails (exit 1, one line per problem) when a public member function of a class in include/platformpp/*.hpp
// has no row, a row names a member or class that does not exist, a row names a C function the C header does
// not declare, or a function the C header declares appears in no row.
//
// The scanner reads declarations, not arbitrary C++: comments, string literals, preprocessor lines and
// attributes are dropped, then it walks namespaces and class bodies, tracks public/private sections, skips
// function bodies, enums, aliases and friends, and takes the name before the first top-level parenthesis of
// each member declaration (constructors, destructors and operators included; deleted functions are not
// functions).
#include <algorithm>
#include <cctype>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

namespace {

std::string ReadFile(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error("cannot read " + path.string());
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

// Identifiers, numbers and single punctuation characters ("::" is one token); no comments, literals or
// preprocessor lines.
std::vector<std::string> Tokenize(const std::string& text) {
  std::vector<std::string> tokens;
  bool lineStart = true;
  for (size_t i = 0; i < text.size();) {
    const char c = text[i];
    if (c == '\n') {
      lineStart = true;
      ++i;
    } else if (std::isspace(static_cast<unsigned char>(
                   c))) {  // NOLINT(bugprone-branch-clone): one branch per kind of text
      ++i;
    } else if (c == '#' && lineStart) {  // a preprocessor line, with its continuations
      while (i < text.size() && !(text[i] == '\n' && text[i - 1] != '\\'))
        ++i;
    } else if (text.compare(i, 2, "//") == 0) {
      while (i < text.size() && text[i] != '\n')
        ++i;
    } else if (text.compare(i, 2, "/*") == 0) {
      const size_t end = text.find("*/", i + 2);
      i = end == std::string::npos ? text.size() : end + 2;
    } else if (c == '\'' && i > 0 && std::isalnum(static_cast<unsigned char>(text[i - 1]))) {
      ++i;  // a digit separator (1'000)
    } else if (c == '"' || c == '\'') {
      for (++i; i < text.size() && text[i] != c; ++i)
        if (text[i] == '\\') ++i;
      ++i;
      tokens.emplace_back(c == '"' ? "\"\"" : "''");
      lineStart = false;
    } else if (std::isalnum(static_cast<unsigned char>(c)) || c == '_') {
      size_t end = i;
      while (end < text.size() && (std::isalnum(static_cast<unsigned char>(text[end])) || text[end] == '_'))
        ++end;
      tokens.push_back(text.substr(i, end - i));
      i = end;
      lineStart = false;
    } else {
      if (text.compare(i, 2, "::") == 0) {
        tokens.emplace_back("::");
        i += 2;
      } else {
        tokens.emplace_back(1, c);
        ++i;
      }
      lineStart = false;
    }
  }
  return tokens;
}

bool IsIdentifier(const std::string& token) {
  return !token.empty() && (std::isalpha(static_cast<unsigned char>(token[0])) || token[0] == '_');
}

class Scanner {
 public:
  explicit Scanner(std::vector<std::string> tokens) : t_(std::move(tokens)) {}

  // Every public member function as "Class::Name" (nested classes as "Outer::Inner::Name"), and every class.
  void Run(std::set<std::string>& members, std::set<std::string>& classes) {
    members_ = &members;
    classes_ = &classes;
    Declarations("", false);
  }

 private:
  const std::string& Peek(size_t ahead = 0) const {
    static const std::string end;
    return i_ + ahead < t_.size() ? t_[i_ + ahead] : end;
  }
  bool AtEnd() const { return i_ >= t_.size(); }

  // Skips a balanced (), [], {} or <> group starting at the current token.
  void SkipGroup() {
    const std::string open = Peek();
    const std::string close = open == "(" ? ")" : open == "[" ? "]" : open == "{" ? "}" : ">";
    int depth = 0;
    do {
      if (Peek() == open) ++depth;
      if (Peek() == close) --depth;
      ++i_;
    } while (!AtEnd() && depth > 0);
  }

  // Skips to the end of a declaration: past the next ';' outside any group, or past a body `{...}` (and a ';'
  // right after it).
  void SkipDeclaration() {
    while (!AtEnd()) {
      if (Peek() == ";") {
        ++i_;
        return;
      }
      if (Peek() == "{") {
        SkipGroup();
        if (Peek() == ";") ++i_;
        return;
      }
      if (Peek() == "(" || Peek() == "[") {
        SkipGroup();
        continue;
      }
      ++i_;
    }
  }

  // [[attributes]] anywhere in a declaration.
  void SkipAttributes() {
    while (Peek() == "[" && Peek(1) == "[")
      SkipGroup();
  }

  // Namespace scope (inClass false) or a class body (inClass true, starting after its '{').
  void Declarations(const std::string& scope, bool inClass, bool isPublic = true) {
    while (!AtEnd()) {
      SkipAttributes();
      const std::string& token = Peek();
      if (token == "}") {
        ++i_;
        if (Peek() == ";") ++i_;
        return;
      }
      if (token == ";") {
        ++i_;
      } else if (token == "namespace") {
        while (!AtEnd() && Peek() != "{" && Peek() != ";")
          ++i_;
        if (Peek() == "{") {
          ++i_;
          Declarations("", false);
        } else {
          ++i_;
        }
      } else if (inClass && (token == "public" || token == "private" || token == "protected") &&
                 Peek(1) == ":") {
        isPublic = token == "public";
        i_ += 2;
      } else if (token == "enum" || token == "using" || token == "typedef" || token == "friend" ||
                 token == "static_assert") {  // NOLINT(bugprone-branch-clone): named apart from the catch-all
        SkipDeclaration();
      } else if (token == "template") {
        ++i_;
        if (Peek() == "<") SkipGroup();
      } else if ((token == "class" || token == "struct" || token == "union") && IsIdentifier(Peek(1))) {
        ClassDefinition(scope, token != "class", inClass && !isPublic);
      } else if (inClass) {
        Member(scope, isPublic);
      } else {
        SkipDeclaration();  // free functions, variables, out-of-class definitions
      }
    }
  }

  // At `class Name ...`: a definition (scanned) or a forward declaration (skipped).
  void ClassDefinition(const std::string& scope, bool publicByDefault, bool hidden) {
    ++i_;
    SkipAttributes();
    const std::string name = scope.empty() ? Peek() : scope + "::" + Peek();
    ++i_;
    while (!AtEnd() && Peek() != "{" && Peek() != ";") {  // final, base clause
      if (Peek() == "<") {
        SkipGroup();
      } else {
        ++i_;
      }
    }
    if (Peek() == ";") {
      ++i_;
      return;
    }
    ++i_;  // '{'
    std::set<std::string>* members = members_;
    std::set<std::string> discard;
    if (hidden)
      members_ = &discard;  // a private nested class is no part of the API
    else
      classes_->insert(name);
    Declarations(name, true, publicByDefault);
    members_ = members;
  }

  // One member declaration of a class body: records it when it is a public function.
  void Member(const std::string& scope, bool isPublic) {
    std::string name;
    bool function = false;
    int angle = 0;
    while (!AtEnd()) {
      SkipAttributes();
      const std::string& token = Peek();
      if (token == ";" || (token == "{" && angle == 0) || (token == "=" && angle == 0) || token == "}") break;
      if (token == "<" && i_ > 0 && IsIdentifier(t_[i_ - 1]) && t_[i_ - 1] != "operator") {
        ++angle;
      } else if (token == ">" && angle > 0) {
        --angle;
      } else if (token == "operator") {
        name = "operator";
        ++i_;
        // The operator's own tokens up to its parameter list: "operator bool", "operator=", "operator()".
        if (Peek() == "(" && Peek(1) == ")") {
          name += "()";
          i_ += 2;
        }
        while (!AtEnd() && Peek() != "(") {
          name += IsIdentifier(Peek()) ? " " + Peek() : Peek();
          ++i_;
        }
        function = true;
        break;
      } else if (token == "(" && angle == 0) {
        const std::string& before = i_ > 0 ? t_[i_ - 1] : token;
        if (IsIdentifier(before) && Peek(1) != "*" && Peek(1) != "&") {
          name = before;
          if (i_ > 1 && t_[i_ - 2] == "~") name = "~" + name;
          function = true;
        }
        break;
      }
      ++i_;
    }
    if (!function) {
      SkipMemberRest();
      return;
    }
    SkipGroup();  // the parameters
    // Qualifiers, a trailing return type, `= default`, `= delete`, `= 0`, a constructor's initializers, a
    // body.
    bool deleted = false;
    while (!AtEnd()) {
      if (Peek() == ";") {
        ++i_;
        break;
      }
      if (Peek() == "{") {
        SkipGroup();
        break;
      }
      if (Peek() == "=" && Peek(1) == "delete") deleted = true;
      if (Peek() == "(" || Peek() == "[") {
        SkipGroup();
      } else if (Peek() == ":") {
        ++i_;
        Initializers();
      } else {
        ++i_;
      }
    }
    if (isPublic && !deleted && !name.empty()) members_->insert(scope + "::" + name);
  }

  // A constructor's member initializers, up to (not including) its body.
  void Initializers() {
    while (!AtEnd() && Peek() != "{" && Peek() != ";") {
      while (!AtEnd() && Peek() != "(" && Peek() != "{") {
        if (Peek() == "<") {
          SkipGroup();
        } else {
          ++i_;
        }
      }
      SkipGroup();  // the initializer's (...) or {...}
      if (Peek() == ",") ++i_;
    }
  }

  // The rest of a data member: an initializer (`= x`, `{x}`) up to its ';'.
  void SkipMemberRest() {
    while (!AtEnd() && Peek() != ";" && Peek() != "}") {
      if (Peek() == "{" || Peek() == "(" || Peek() == "[") {
        SkipGroup();
      } else {
        ++i_;
      }
    }
    if (Peek() == ";") ++i_;
  }

  std::vector<std::string> t_;
  size_t i_ = 0;
  std::set<std::string>* members_ = nullptr;
  std::set<std::string>* classes_ = nullptr;
};

// The functions the C header declares with PLATFORMPP_C_API.
std::set<std::string> CFunctions(const std::string& header) {
  std::vector<std::string> tokens = Tokenize(header);
  std::set<std::string> functions;
  for (size_t i = 0; i < tokens.size(); ++i) {
    if (tokens[i] != "PLATFORMPP_C_API") continue;
    size_t j = i + 1;
    while (j < tokens.size() && tokens[j] != "(" && tokens[j] != ";")
      ++j;
    if (j < tokens.size() && tokens[j] == "(" && IsIdentifier(tokens[j - 1])) functions.insert(tokens[j - 1]);
  }
  return functions;
}

void ScanHeaders(const std::filesystem::path& dir, std::set<std::string>& members,
                 std::set<std::string>& classes) {
  std::vector<std::filesystem::path> headers;
  for (const auto& entry : std::filesystem::directory_iterator(dir))
    if (entry.is_regular_file() && entry.path().extension() == ".hpp") headers.push_back(entry.path());
  std::sort(headers.begin(), headers.end());
  if (headers.empty()) throw std::runtime_error("no .hpp files in " + dir.string());
  for (const auto& header : headers)
    Scanner(Tokenize(ReadFile(header))).Run(members, classes);
}

std::vector<std::string> Split(const std::string& line, char separator) {
  std::vector<std::string> fields;
  std::string field;
  std::istringstream in(line);
  while (std::getline(in, field, separator))
    fields.push_back(field);
  return fields;
}

std::string Trim(const std::string& text) {
  const size_t begin = text.find_first_not_of(" \t\r");
  if (begin == std::string::npos) return "";
  return text.substr(begin, text.find_last_not_of(" \t\r") - begin + 1);
}

// The umbrella header and the parts it includes (<platformpp/platformpp_c_*.h>, beside it), as one text.
std::string CHeaderText(const std::filesystem::path& umbrella) {
  std::string text = ReadFile(umbrella);
  std::string all = text;
  const std::string prefix = "#include <platformpp/";
  for (std::size_t at = text.find(prefix); at != std::string::npos; at = text.find(prefix, at + 1)) {
    const std::size_t start = at + prefix.size();
    const std::size_t end = text.find('>', start);
    if (end == std::string::npos) break;
    all += "\n" + ReadFile(umbrella.parent_path() / text.substr(start, end - start));
  }
  return all;
}

}  // namespace

int main(int argc, char** argv) {
  try {
    if (argc == 3 && std::string(argv[1]) == "--list") {
      std::set<std::string> members, classes;
      ScanHeaders(argv[2], members, classes);
      for (const auto& member : members)
        std::printf("%s\n", member.c_str());
      return 0;
    }
    if (argc != 4) {
      std::fprintf(stderr, "usage: %s <include/platformpp> <platformpp_c.h> <coverage.tsv>\n", argv[0]);
      return 2;
    }
    std::set<std::string> members, classes;
    ScanHeaders(argv[1], members, classes);
    const std::set<std::string> cFunctions = CFunctions(CHeaderText(argv[2]));
    const std::string table = argv[3];

    std::vector<std::string> problems;
    std::map<std::string, int> rowOf;    // Class::Member or Class::* -> line
    std::set<std::string> wholeClasses;  // classes covered by one Class::* row
    std::set<std::string> named;         // C functions some row names
    std::istringstream lines(ReadFile(table));
    std::string line;
    int number = 0;
    while (std::getline(lines, line)) {
      ++number;
      if (Trim(line).empty() || Trim(line)[0] == '#') continue;
      const std::string where = table + ":" + std::to_string(number) + ": ";
      std::vector<std::string> fields = Split(line, '\t');
      for (auto& field : fields)
        field = Trim(field);
      if (fields.size() < 2 || fields.size() > 3) {
        problems.push_back(where + "expected 2 or 3 tab-separated fields");
        continue;
      }
      const std::string& member = fields[0];
      const std::string& functions = fields[1];
      const std::string reason = fields.size() == 3 ? fields[2] : "";
      if (functions == "-" && reason.empty()) problems.push_back(where + member + ": '-' needs a reason");
      if (functions != "-") {
        for (const auto& function : Split(functions, ',')) {
          const std::string name = Trim(function);
          if (!cFunctions.count(name)) {
            problems.push_back(where + "names " + name + ", which platformpp_c.h does not declare");
          }
          named.insert(name);
        }
      }
      if (member == "C-only") {
        if (functions == "-" || reason.empty())
          problems.push_back(where + "a C-only row names its C functions and says what they are for");
        continue;
      }
      if (rowOf.count(member)) {
        problems.push_back(where + member + " already has a row (line " + std::to_string(rowOf[member]) +
                           ")");
        continue;
      }
      rowOf[member] = number;
      if (member.size() > 3 && member.compare(member.size() - 3, 3, "::*") == 0) {
        const std::string cls = member.substr(0, member.size() - 3);
        if (!classes.count(cls)) problems.push_back(where + "no class " + cls + " in the C++ headers");
        if (functions != "-") problems.push_back(where + member + ": a whole-class row is '-' with a reason");
        wholeClasses.insert(cls);
      } else if (!members.count(member)) {
        problems.push_back(where + "no public member function " + member + " in the C++ headers");
      }
    }
    for (const auto& member : members) {
      const std::string cls = member.substr(0, member.rfind("::"));
      if (!rowOf.count(member) && !wholeClasses.count(cls))
        problems.push_back(table + ": no row for " + member + " (name its C function, or '-' and why not)");
    }
    for (const auto& function : cFunctions)
      if (!named.count(function))
        problems.push_back(table + ": " + function + " is declared in platformpp_c.h but in no row");

    for (const auto& problem : problems)
      std::fprintf(stderr, "%s\n", problem.c_str());
    if (!problems.empty()) {
      std::fprintf(stderr, "c_api coverage: %zu problem(s)\n", problems.size());
      return 1;
    }
    std::printf("c_api coverage: %zu C++ members, %zu C functions, every one accounted for\n", members.size(),
                cFunctions.size());
    return 0;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "c_api coverage: %s\n", e.what());
    return 2;
  }
}
