#!/usr/bin/env python3
"""Generates the C# raw layer (Runtime/Raw/Native.g.cs) from the C ABI's umbrella header.

    bindings/csharp/generate_raw.py                 # rewrite Runtime/Raw/Native.g.cs
    bindings/csharp/generate_raw.py --check         # regenerate to a temporary file; fail with a diff if stale
    bindings/csharp/generate_raw.py --coverage DIR  # fail when a C function is called from no C# file under DIR
                                                    # (unless not-called.tsv says why)
    bindings/csharp/generate_raw.py --imports       # print the entry points the raw layer imports

The declarations come from clang's JSON AST (`clang -Xclang -ast-dump=json -fsyntax-only`), not from parsing
the header text ourselves: the compiler resolves typedefs, evaluates enum values and attaches the doc comments,
so the generator does not depend on how clang-format happens to wrap a declaration. Two things the AST lacks
are read next to it: integer macros (`clang -dM -E`) and the parameter names of function-pointer typedefs
(from the declaration's own source range, which the AST gives).

Only the Python standard library and clang (tools/install-deps installs both) are needed.
"""
import argparse
import difflib
import json
import os
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
INCLUDE = os.path.join(ROOT, "c_api", "include")
HEADER = os.path.join(INCLUDE, "platformpp", "platformpp_c.h")
OUTPUT = os.path.join(HERE, "Runtime", "Raw", "Native.g.cs")
NOT_CALLED = os.path.join(HERE, "not-called.tsv")
PREFIX = "platformpp"

# C scalar types and their blittable C# equivalents (size_t is pointer-sized: UIntPtr, as C# 7 has no nuint).
SCALARS = {
    "void": "void",
    "char": "byte",
    "int16_t": "short",
    "int32_t": "int",
    "uint8_t": "byte",
    "uint32_t": "uint",
    "uint64_t": "ulong",
    "int64_t": "long",
    "double": "double",
    "float": "float",
    "size_t": "UIntPtr",
}

CSHARP_KEYWORDS = {
    "abstract", "as", "base", "bool", "break", "byte", "case", "catch", "char", "checked", "class", "const",
    "continue", "decimal", "default", "delegate", "do", "double", "else", "enum", "event", "explicit", "extern",
    "false", "finally", "fixed", "float", "for", "foreach", "goto", "if", "implicit", "in", "int", "interface",
    "internal", "is", "lock", "long", "namespace", "new", "null", "object", "operator", "out", "override",
    "params", "private", "protected", "public", "readonly", "ref", "return", "sbyte", "sealed", "short",
    "sizeof", "stackalloc", "static", "string", "struct", "switch", "this", "throw", "true", "try", "typeof",
    "uint", "ulong", "unchecked", "unsafe", "ushort", "using", "virtual", "void", "volatile", "while",
}


def run_clang(clang, args):
    try:
        return subprocess.run([clang] + args, check=True, capture_output=True, text=True).stdout
    except FileNotFoundError:
        sys.exit(f"generate_raw: {clang} not found (tools/install-deps installs clang)")
    except subprocess.CalledProcessError as e:
        sys.exit(f"generate_raw: clang failed:\n{e.stderr}")


def ident(name):
    return "@" + name if name in CSHARP_KEYWORDS else name


def xml_escape(text):
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def comment_text(node):
    """The words of a doc comment's part (a paragraph, a @param), whatever its nesting, as one line."""
    texts = []

    def walk(m):
        if m.get("kind") == "TextComment":
            texts.append(m.get("text", "").strip())
        for child in m.get("inner", []):
            walk(child)

    walk(node)
    return " ".join(t for t in texts if t)


def doc_comment(node, indent):
    """The node's doc comment (/** ... */ in the header) as C# XML docs: the description as <summary>, each
    @param as <param>, @return as <returns>; nothing when there is no comment."""
    text_of = comment_text

    summary, params, returns = [], [], []
    for child in node.get("inner", []):
        if child.get("kind") != "FullComment":
            continue
        for part in child.get("inner", []):
            kind = part.get("kind")
            if kind == "ParamCommandComment":
                params.append((part.get("param", ""), text_of(part)))
            elif kind == "BlockCommandComment" and part.get("name") in ("return", "returns"):
                returns.append(text_of(part))
            else:
                summary.append(text_of(part))

    def wrapped(open_tag, text, close_tag):
        words = text.split()
        if not words:
            return []
        lines, line = [], ""
        for word in words:  # rewrapped to 110 columns: the header's own wrapping follows its indentation
            if line and len(indent) + 4 + len(line) + 1 + len(word) > 114:
                lines.append(line)
                line = word
            else:
                line = f"{line} {word}" if line else word
        lines.append(line)
        return [f"{indent}/// {open_tag}"] + [f"{indent}/// {xml_escape(l)}" for l in lines] + [
            f"{indent}/// {close_tag}"]

    out = wrapped("<summary>", " ".join(t for t in summary if t), "</summary>")
    if not out:
        return []
    for name, text in params:
        out += wrapped(f'<param name="{xml_escape(ident(name))}">', text, "</param>")
    for text in returns:
        out += wrapped("<returns>", text, "</returns>")
    return out


class Model:
    def __init__(self, ast, macros):
        self.enums = []      # (name, [(member, value)], node)
        self.structs = []    # (name, [(field, ctype)], node)
        self.opaque = set()  # struct names without a definition: handles, IntPtr in C#
        self.delegates = []  # (name, return ctype, [param ctypes], node)
        self.functions = []  # (name, return ctype, [(param, ctype)], node)
        self.macros = macros
        defined = set()
        for node in ast["inner"]:
            name = node.get("name", "")
            if not name.startswith(PREFIX) or node.get("isImplicit"):
                continue
            kind = node["kind"]
            if kind == "EnumDecl":
                members = []
                for c in node.get("inner", []):
                    if c["kind"] == "EnumConstantDecl":
                        members.append((c["name"], enum_value(c)))
                self.enums.append((name, members, node))
            elif kind == "RecordDecl":
                if node.get("completeDefinition"):
                    fields = [(f["name"], f["type"]["qualType"]) for f in node.get("inner", [])
                              if f["kind"] == "FieldDecl"]
                    self.structs.append((name, fields, node))
                    defined.add(name)
                else:
                    self.opaque.add(name)
            elif kind == "TypedefDecl":
                qual = node["type"]["qualType"]
                if "(*)" in qual:
                    ret, params = split_function_type(qual.replace("(*)", "", 1))
                    self.delegates.append((name, ret, params, node))
            elif kind == "FunctionDecl":
                ret = node["type"]["qualType"].split("(", 1)[0].strip()
                params = [(p.get("name") or f"arg{i}", p["type"]["qualType"])
                          for i, p in enumerate(c for c in node.get("inner", []) if c["kind"] == "ParmVarDecl")]
                self.functions.append((name, ret, params, node))
        self.opaque -= defined
        self.enum_names = {e[0] for e in self.enums}
        self.struct_names = {s[0] for s in self.structs}
        self.delegate_names = {d[0] for d in self.delegates}

    def cs_type(self, ctype, where):
        """The C# type of a C type as it appears in a declaration."""
        t = ctype.replace("const ", "").replace(" const", "").strip()
        stars = t.count("*")
        base = t.replace("*", "").strip()
        if base.startswith("struct ") or base.startswith("enum "):
            base = base.split(" ", 1)[1]
        if base in self.delegate_names:
            if stars:
                raise SystemExit(f"generate_raw: pointer to a function pointer in {where}")
            return base
        if base in self.opaque:
            if stars == 0:
                raise SystemExit(f"generate_raw: opaque {base} by value in {where}")
            return "IntPtr" + "*" * (stars - 1)
        if base == "void" and stars:
            return "IntPtr" + "*" * (stars - 1)
        if base in SCALARS:
            return SCALARS[base] + "*" * stars
        if base in self.enum_names or base in self.struct_names:
            return base + "*" * stars
        raise SystemExit(f"generate_raw: no C# type for '{ctype}' in {where}: extend SCALARS")


def enum_value(constant):
    def find(n):
        if "value" in n:
            return n["value"]
        for c in n.get("inner", []):
            v = find(c)
            if v is not None:
                return v
        return None

    value = find(constant)
    if value is None:
        raise SystemExit(f"generate_raw: {constant['name']} has no value in the AST")
    return int(value, 0)


def split_function_type(qual):
    """'void (const char *, size_t, void *)' -> ('void', ['const char *', 'size_t', 'void *'])."""
    ret, rest = qual.split("(", 1)
    params, depth, cur = [], 0, ""
    for ch in rest[: rest.rindex(")")]:
        if ch == "," and depth == 0:
            params.append(cur.strip())
            cur = ""
            continue
        depth += ch == "("
        depth -= ch == ")"
        cur += ch
    if cur.strip() and cur.strip() != "void":
        params.append(cur.strip())
    return ret.strip(), params


def typedef_param_names(name, count, sources):
    """Parameter names of a function-pointer typedef, from its declaration in the header text."""
    pattern = re.compile(r"\(\s*\*\s*" + re.escape(name) + r"\s*\)\s*\(")
    for text in sources:
        m = pattern.search(text)
        if not m:
            continue
        depth, i, start = 1, m.end(), m.end()
        while depth:
            depth += {"(": 1, ")": -1}.get(text[i], 0)
            i += 1
        inner = re.sub(r"/\*.*?\*/", "", text[start : i - 1], flags=re.S)
        parts = [p.strip() for p in inner.split(",")]
        names = []
        for k, p in enumerate(parts):
            m2 = re.search(r"([A-Za-z_]\w*)\s*$", p)
            names.append(m2.group(1) if m2 and m2.group(1) not in SCALARS and not m2.group(1).startswith(PREFIX)
                         else f"arg{k}")
        if len(names) == count:
            return names
    return [f"arg{k}" for k in range(count)]


def integer_macros(clang):
    out = {}
    for line in run_clang(clang, ["-dM", "-E", "-I", INCLUDE, "-x", "c", HEADER]).splitlines():
        m = re.match(r"#define (PLATFORMPP_\w+) (\(?-?(?:0x[0-9A-Fa-f]+|\d+)\)?)$", line)
        if m:
            out[m.group(1)] = int(m.group(2).strip("()"), 0)
    return dict(sorted(out.items()))


def generate(clang):
    ast = json.loads(run_clang(clang, ["-Xclang", "-ast-dump=json", "-fsyntax-only", "-I", INCLUDE, "-x", "c",
                                       HEADER]))
    model = Model(ast, integer_macros(clang))
    sources = []
    for part in sorted(os.listdir(os.path.join(INCLUDE, "platformpp"))):
        if part.startswith("platformpp_c") and part.endswith(".h"):
            with open(os.path.join(INCLUDE, "platformpp", part), encoding="utf-8") as f:
                sources.append(f.read())

    out = [
        "// <auto-generated>",
        "// Generated by bindings/csharp/generate_raw.py from c_api/include/platformpp/platformpp_c.h: do not edit.",
        "// Regenerate with `python3 bindings/csharp/generate_raw.py`; the csharp_raw_layer_fresh test fails when",
        "// this file is stale.",
        "// </auto-generated>",
        "// The raw layer: the C ABI one to one, with the C names. Pointers stay pointers (unsafe code), opaque",
        "// handles are IntPtr, size_t is UIntPtr, booleans are the C ABI's int32_t. Platformpp.Client is the",
        "// idiomatic layer built on it.",
        "using System;",
        "using System.Runtime.InteropServices;",
        "",
        "namespace Platformpp.Raw",
        "{",
    ]
    for name, members, node in model.enums:
        out += doc_comment(node, "    ")
        out.append(f"    public enum {name} : int")
        out.append("    {")
        out += [f"        {m} = {v}," for m, v in members]
        out.append("    }")
        out.append("")
    for name, fields, node in model.structs:
        out += doc_comment(node, "    ")
        out.append("    [StructLayout(LayoutKind.Sequential)]")
        out.append(f"    public unsafe struct {name}")
        out.append("    {")
        for field, ctype in fields:
            out.append(f"        public {model.cs_type(ctype, name + '.' + field)} {ident(field)};")
        out.append("    }")
        out.append("")
    for name, ret, params, node in model.delegates:
        names = typedef_param_names(name, len(params), sources)
        args = ", ".join(f"{model.cs_type(p, name)} {ident(n)}" for p, n in zip(params, names))
        out += doc_comment(node, "    ")
        out.append("    [UnmanagedFunctionPointer(CallingConvention.Cdecl)]")
        out.append(f"    public unsafe delegate {model.cs_type(ret, name)} {name}({args});")
        out.append("")
    out.append("    /// <summary>The C functions of libplatformpp_c, one [DllImport] each.</summary>")
    out.append("    public static unsafe class Native")
    out.append("    {")
    out.append("#if (UNITY_IOS || UNITY_WEBGL) && !UNITY_EDITOR")
    out.append("        /// <summary>Statically linked into the player on these platforms.</summary>")
    out.append("        public const string Library = \"__Internal\";")
    out.append("#elif UNITY_EDITOR_WIN || (UNITY_STANDALONE_WIN && !UNITY_EDITOR) || PLATFORMPP_WINDOWS")
    out.append("        /// <summary>platformpp.dll (Windows: the DLL's name in the Unity package's Plugins/Windows/x86_64;")
    out.append("        /// PLATFORMPP_WINDOWS selects it outside Unity).</summary>")
    out.append("        public const string Library = \"platformpp\";")
    out.append("#else")
    out.append("        /// <summary>libplatformpp_c.so on Linux, libplatformpp_c.dylib on macOS.</summary>")
    out.append("        public const string Library = \"platformpp_c\";")
    out.append("#endif")
    for macro, value in model.macros.items():
        out.append(f"        public const int {macro} = {value};")
    for name, ret, params, node in model.functions:
        args = ", ".join(f"{model.cs_type(t, name + '(' + p + ')')} {ident(p)}" for p, t in params)
        out.append("")
        out += doc_comment(node, "        ")
        out.append(f"        [DllImport(Library, CallingConvention = CallingConvention.Cdecl, ExactSpelling = true)]")
        out.append(f"        public static extern {model.cs_type(ret, name)} {name}({args});")
    out.append("    }")
    out.append("}")
    return "\n".join(out) + "\n", model


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clang", default=os.environ.get("CLANG", "clang"))
    parser.add_argument("--output", default=OUTPUT)
    parser.add_argument("--check", action="store_true", help="fail (with a diff) when --output is stale")
    parser.add_argument("--coverage", metavar="DIR", help="fail when a C function is called from no .cs file")
    parser.add_argument("--imports", action="store_true", help="print the imported entry points")
    args = parser.parse_args()

    text, model = generate(args.clang)
    if args.imports:
        print("\n".join(f[0] for f in model.functions))
        return 0
    if args.coverage:
        used = set()
        for dirpath, _, files in os.walk(args.coverage):
            for f in files:
                if f.endswith(".cs") and not f.endswith(".g.cs"):
                    with open(os.path.join(dirpath, f), encoding="utf-8") as src:
                        used |= set(re.findall(r"\bNative\.(platformpp_\w+)\s*\(", src.read()))
        excused = {}
        with open(NOT_CALLED, encoding="utf-8") as f:
            for line in f:
                if line.strip() and not line.startswith("#"):
                    name, _, why = line.rstrip("\n").partition("\t")
                    excused[name] = why
        declared = {f[0] for f in model.functions}
        problems = [f"{name}: called from no C# file (call it, or say why not in {os.path.basename(NOT_CALLED)})"
                    for name in sorted(declared - used - set(excused))]
        problems += [f"{name}: listed in {os.path.basename(NOT_CALLED)} but not declared" for name in excused
                     if name not in declared]
        problems += [f"{name}: listed in {os.path.basename(NOT_CALLED)} but called" for name in excused if name in used]
        problems += [f"{name}: listed in {os.path.basename(NOT_CALLED)} without a reason" for name, why in
                     excused.items() if not why.strip()]
        if problems:
            print("\n".join(problems), file=sys.stderr)
            return 1
        print(f"{len(declared & used)} of {len(declared)} C functions are called from {args.coverage}; "
              f"{len(excused)} not, for the reasons in {os.path.basename(NOT_CALLED)}")
        return 0
    if args.check:
        with tempfile.NamedTemporaryFile("w", suffix=".cs", delete=False, encoding="utf-8") as tmp:
            tmp.write(text)
        try:
            with open(tmp.name, encoding="utf-8") as fresh:
                fresh_text = fresh.read()
            try:
                with open(args.output, encoding="utf-8") as committed:
                    old = committed.read()
            except FileNotFoundError:
                old = ""
        finally:
            os.unlink(tmp.name)
        if old != fresh_text:
            diff = difflib.unified_diff(old.splitlines(True), fresh_text.splitlines(True),
                                        os.path.relpath(args.output, ROOT), "regenerated")
            sys.stderr.writelines(list(diff)[:200])
            print("\n" + os.path.relpath(args.output, ROOT) + " is stale: run python3 "
                  "bindings/csharp/generate_raw.py and commit the result", file=sys.stderr)
            return 1
        print(f"{os.path.relpath(args.output, ROOT)} is up to date ({len(model.functions)} functions)")
        return 0
    os.makedirs(os.path.dirname(args.output), exist_ok=True)
    with open(args.output, "w", encoding="utf-8") as f:
        f.write(text)
    print(f"wrote {os.path.relpath(args.output, ROOT)}: {len(model.functions)} functions, {len(model.enums)} enums, "
          f"{len(model.structs)} structs, {len(model.delegates)} delegate types")
    return 0


if __name__ == "__main__":
    sys.exit(main())
