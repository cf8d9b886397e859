#!/usr/bin/env python3
"""Generates the C ABI call matrix (docs/c-api-call-matrix.md): one C function per exported function of
<platformpp/platformpp_c.h> that calls it with arguments of a given kind, and one recording callback per
callback type.

    generate_call_matrix.py OUTPUT.c [--clang CLANG]

The declarations come from clang's JSON AST, read by the C# binding's generator (bindings/csharp/
generate_raw.py), so a function added to the header is in the matrix at the next build. A parameter type the
generator does not know stops it with a message: each new kind of argument is given its values here, on
purpose, not guessed.

Every argument gets one of four kinds of value (matrix_arguments in call_matrix.h): plausible, empty (NULL
pointers, zero sizes, NULL callbacks), over-long (1 MiB strings, deep JSON nesting, the largest integers,
out-of-range enum values, hundreds of metadata pairs) and invalid (text that is not UTF-8 and holds a NUL,
negative numbers, NaN). The object a function works on (the client, a lobby handle, a call...) is the
state's, or NULL: call_matrix.c decides. Every user_data is a ticket that counts its callbacks and its free.
"""
import argparse
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(HERE)))
sys.path.insert(0, os.path.join(ROOT, "bindings", "csharp"))
import generate_raw  # noqa: E402  (the header's model: functions, callback types, structs, enums)

# Calls that change what state the client is in (connected, which token): made last in a state, so that the
# calls before them meet the state the test set up.
STATE_CHANGERS = [
    "platformpp_client_update_token",
    "platformpp_client_connect",
    "platformpp_client_disconnect",
    "platformpp_client_authorize",
    "platformpp_client_abort_authorize",
    "platformpp_client_unmerge_into_provisional_account",
    "platformpp_client_end_calls",
    "platformpp_client_leave_lobby",
]
# Never called by the matrix: the state's own life.
NOT_CALLED = {"platformpp_client_destroy"}
# Functions that run callbacks: the matrix marks the time as inside them, as a game's loop does.
RUNS_CALLBACKS_SUFFIX = "_run_callbacks"

SCALAR_VALUES = {
    # plausible, empty, over-long, invalid
    "uint64_t": ("1", "0", "UINT64_MAX", "UINT64_C(0x8000000000000000)"),
    "int64_t": ("1", "0", "INT64_MAX", "INT64_MIN"),
    "int32_t": ("1", "0", "INT32_MAX", "-1"),
    "uint32_t": ("1", "0", "UINT32_MAX", "UINT32_MAX"),
    "size_t": ("0", "0", "SIZE_MAX", "(SIZE_MAX / 2)"),
    "float": ("1.0f", "0.0f", "HUGE_VALF", "NAN"),
    "double": ("1.0", "0.0", "HUGE_VAL", "NAN"),
}
# Parameters whose name says what the number is for.
NAMED_VALUES = {
    # A wait: short in every kind, so no call blocks the matrix (a negative one is invalid).
    "timeout_ms": ("1", "0", "20", "-1"),
    # How many to take at most: plausible is a page; over-long the most the type holds.
    "limit": ("25", "0", "INT32_MAX", "-1"),
}


def classify(model):
    """Names for the types the generator meets."""
    return {
        "opaque": model.opaque,
        "enums": {name: members for name, members, _ in model.enums},
        "structs": {name: fields for name, fields, _ in model.structs},
        "delegates": {name: (ret, params) for name, ret, params, _ in model.delegates},
        "functions": {name for name, _, _, _ in model.functions},
    }


def base_of(ctype):
    t = ctype.replace("const ", "").replace(" const", "").strip()
    stars = t.count("*")
    return t.replace("*", "").strip(), stars


def param_docs(node):
    """{param name: its @param text} from the declaration's doc comment."""
    docs = {}
    for child in node.get("inner", []):
        if child.get("kind") != "FullComment":
            continue
        for part in child.get("inner", []):
            if part.get("kind") == "ParamCommandComment":
                docs[part.get("param", "")] = generate_raw.comment_text(part)
    return docs


def callback_kind(function, param, doc):
    """'once' for a completion (ends its operation), 'each' for a registration (runs per event), 'optional' for
    one that runs at most once."""
    text = doc.lower().replace("freed at once", "").replace("at once", "")
    if "at most once" in text:
        return "optional"
    if "each" in text or "every" in text or "whenever" in text:
        return "each"
    if " once" in text or text.startswith("once"):
        return "once"
    raise SystemExit(f"generate_call_matrix: {function}'s {param}: its doc says neither 'once' nor 'for each' "
                     f"('{doc}'); say in the header which it is")


class Function:
    def __init__(self, name, ret, params, node, types):
        self.name, self.ret, self.params, self.types = name, ret, params, types
        self.docs = param_docs(node)
        self.lines = []    # the body, before the call
        self.after = []    # after the call
        self.args = []
        self.callbacks_seen = []  # (parameter, callback type, 'once' / 'each' / 'optional')

    def emit(self):
        t = self.types
        i = 0
        while i < len(self.params):
            pname, ctype = self.params[i]
            nxt = self.params[i + 1] if i + 1 < len(self.params) else None
            base, stars = base_of(ctype)
            var = f"a{i}"
            const = ctype.strip().startswith("const ")
            # A borrowed string and its size.
            if base == "char" and stars == 1 and const and nxt and nxt[0] == pname + "_size":
                flavor = "json" if pname.endswith("_json") else "hex" if pname.endswith("_hex") else "text"
                self.lines.append(f"  matrix_text t{i} = matrix_make_text(kind, MATRIX_TEXT_{flavor.upper()});")
                self.args += [f"t{i}.ptr", f"t{i}.size"]
                i += 2
                continue
            # A caller's buffer and its capacity.
            if stars == 1 and not const and nxt and nxt[1] == "size_t" and nxt[0] in ("size", "capacity") and \
                    base in ("char", "uint8_t", "uint64_t"):
                self.lines.append(f"  {base} b{i}[64];")
                self.lines.append(f"  memset(b{i}, 0, sizeof b{i});")
                self.args += [f"kind == MATRIX_EMPTY ? NULL : b{i}",
                              f"kind == MATRIX_EMPTY ? 0 : kind == MATRIX_INVALID ? 1 : sizeof b{i} / sizeof b{i}[0]"]
                i += 2
                continue
            # Handles written to a caller's array (each one the caller's to destroy).
            if stars == 2 and base in t["opaque"] and nxt and nxt[0] == "capacity":
                self.lines.append(f"  {base}* h{i}[4] = {{NULL, NULL, NULL, NULL}};")
                self.args += [f"kind == MATRIX_EMPTY ? NULL : h{i}", "kind == MATRIX_EMPTY ? 0 : 4"]
                self.after.append(f"  for (size_t k = 0; k < 4; ++k) {base}_destroy(h{i}[k]);")
                i += 2
                continue
            # Borrowed metadata pairs and their count.
            if base == "platformpp_string_pair" and stars == 1 and nxt and nxt[0].endswith("count"):
                self.lines.append(f"  matrix_pairs p{i} = matrix_make_pairs(kind);")
                self.args += [f"p{i}.pairs", f"p{i}.count"]
                i += 2
                continue
            if base in t["opaque"] and stars == 1 and self.name == base + "_destroy":
                # Destroys its argument: a copy of the state's object, never the object itself.
                clone = base + "_clone"
                made = f"matrix_object(\"{base}\") != NULL ? {clone}(({base}*)matrix_object(\"{base}\")) : NULL" \
                    if clone in t["functions"] else "NULL"
                self.lines.append(f"  {base}* {var} = kind == MATRIX_EMPTY ? NULL : {made};")
                self.args.append(var)
                i += 1
                continue
            if base in t["opaque"] and stars == 1:
                self.lines.append(f"  {ctype} {var} = ({ctype})matrix_object(\"{base}\");")
                self.args.append(var)
                i += 1
                continue
            if base == "void" and stars == 1 and pname == "ptr" and self.name == "platformpp_free":
                # Memory the library handed over: a string it made.
                self.lines.append(f"  void* {var} = kind == MATRIX_EMPTY ? NULL : "
                                  f"platformpp_client_result_to_string(NULL);")
                self.args.append(var)
                i += 1
                continue
            if base in t["opaque"] and stars == 2:
                # A new object written through the pointer: the caller's to destroy.
                self.lines.append(f"  {base}* o{i} = NULL;")
                self.args.append(f"kind == MATRIX_EMPTY ? NULL : &o{i}")
                self.after.append(f"  {base}_destroy(o{i});")
                i += 1
                continue
            if base == "platformpp_user_data_free_fn":
                self.args.append("matrix_free_ticket")
                i += 1
                continue
            if base in t["delegates"]:
                kind = callback_kind(self.name, pname, self.docs.get(pname, ""))
                self.callbacks_seen.append((pname, base, kind))
                self.args.append(f"kind == MATRIX_EMPTY ? NULL : matrix_cb_{base}")
                i += 1
                continue
            if base == "void" and stars == 1 and pname == "user_data":
                once = [b for _, b, k in self.callbacks_seen if k == "once"]
                if len(once) > 1:
                    raise SystemExit(f"generate_call_matrix: {self.name} has {len(once)} callbacks that run once")
                ticket = "MATRIX_TICKET_ONCE" if once else \
                    "MATRIX_TICKET_EACH" if self.callbacks_seen else "MATRIX_TICKET_NONE"
                completion = f"\"{once[0]}\"" if once else "NULL"
                self.lines.append(f"  void* {var} = matrix_ticket(\"{self.name}\", {ticket}, {completion}, "
                                  f"{self.handle_expr()}, kind == MATRIX_EMPTY);")
                self.args.append(var)
                i += 1
                continue
            if stars == 0 and base in SCALAR_VALUES:
                values = NAMED_VALUES.get(pname, SCALAR_VALUES[base])
                self.lines.append(f"  {base} {var} = matrix_pick_{base}(kind, {', '.join(values)});")
                self.args.append(var)
                i += 1
                continue
            if stars == 0 and base in t["enums"]:
                members = [v for n, v in t["enums"][base] if not n.endswith("_FORCE_INT32")]
                self.lines.append(f"  {base} {var} = ({base})matrix_pick_int32_t(kind, {members[-1]}, {members[0]}, "
                                  f"0x7FFFFFFF, -1);")
                self.args.append(var)
                i += 1
                continue
            if stars == 1 and not const and (base in SCALAR_VALUES or base in t["structs"] or base in t["enums"]):
                # An out parameter (or a struct an _init function fills).
                self.lines.append(f"  {base} o{i};")
                self.lines.append(f"  memset(&o{i}, 0, sizeof o{i});")
                self.args.append(f"kind == MATRIX_EMPTY ? NULL : &o{i}")
                i += 1
                continue
            if stars == 2 and const and base == "char":
                self.lines.append(f"  const char* o{i} = NULL;")
                self.args.append(f"kind == MATRIX_EMPTY ? NULL : &o{i}")
                self.after.append(f"  if (o{i} != NULL) matrix_read_cstring(o{i});")
                i += 1
                continue
            if stars == 1 and const and base in t["structs"]:
                self.lines += self.struct_value(var, base)
                self.args.append(f"kind == MATRIX_EMPTY ? NULL : &{var}")
                i += 1
                continue
            raise SystemExit(f"generate_call_matrix: {self.name}: no values for parameter '{ctype} {pname}': "
                             f"give this kind of argument its values in generate_call_matrix.py")
        return self.args

    def handle_expr(self):
        for pname, ctype in self.params:
            base, stars = base_of(ctype)
            if base in self.types["opaque"] and stars == 1:
                return f"matrix_object(\"{base}\") != NULL"
        return "1"

    def struct_value(self, var, base):
        lines = [f"  {base} {var};", f"  memset(&{var}, 0, sizeof {var});"]
        init = base + "_init"
        if init in self.types["functions"]:
            lines.append(f"  {init}(&{var});")
        for fname, ftype in self.types["structs"][base]:
            fbase, fstars = base_of(ftype)
            if fname == "api_version":
                lines.append(f"  if (kind != MATRIX_PLAUSIBLE) {var}.api_version = matrix_pick_int32_t(kind, 1, 0, "
                             f"INT32_MAX, -1);")
            elif fbase == "platformpp_string" and fstars == 0:
                flavor = "HEX" if fname.endswith("_hex") else "TEXT"
                lines.append(f"  {var}.{fname} = matrix_make_string(kind, MATRIX_TEXT_{flavor});")
            elif fstars == 0 and fbase in SCALAR_VALUES:
                values = SCALAR_VALUES[fbase]
                lines.append(f"  if (kind != MATRIX_PLAUSIBLE) {var}.{fname} = matrix_pick_{fbase}(kind, "
                             f"{', '.join(values)});")
            elif fstars == 0 and fbase in self.types["enums"]:
                lines.append(f"  if (kind != MATRIX_PLAUSIBLE) {var}.{fname} = ({fbase})matrix_pick_int32_t(kind, 0, "
                             f"0, 0x7FFFFFFF, -1);")
            elif fstars == 1 and fbase in self.types["opaque"]:
                lines.append(f"  {var}.{fname} = ({fbase}*)matrix_object(\"{fbase}\");")
            else:
                raise SystemExit(f"generate_call_matrix: {base}.{fname} ({ftype}): no values for this field")
        return lines

    def render(self):
        args = self.emit()
        t = self.types
        out = [f"static void call_{self.name}(matrix_arguments kind) {{", "  (void)kind;"]
        out += self.lines
        out.append(f"  matrix_before_call(\"{self.name}\");")
        call = f"{self.name}({', '.join(args)})"
        rbase, rstars = base_of(self.ret)
        rconst = self.ret.strip().startswith("const ")
        if self.name.endswith(RUNS_CALLBACKS_SUFFIX):
            out.append("  matrix_enter_callbacks();")
            out.append(f"  {call};")
            out.append("  matrix_leave_callbacks();")
        elif self.ret == "void":
            out.append(f"  {call};")
        elif rstars == 1 and rbase in t["opaque"] and not rconst:
            out.append(f"  {rbase}* made = {call};")
            out.append("  matrix_after_call();")
            out.append(f"  {rbase}_destroy(made);")
            out += self.after
            out.append("}")
            return out
        elif rstars == 1 and rbase == "char" and not rconst:
            out.append(f"  char* made = {call};")
            out.append("  matrix_after_call();")
            out.append("  if (made != NULL) matrix_read_cstring(made);")
            out.append("  platformpp_free(made);")
            out += self.after
            out.append("}")
            return out
        elif rstars == 1 and rbase == "char":
            out.append(f"  const char* got = {call};")
            out.append("  matrix_after_call();")
            out.append("  if (got != NULL) matrix_read_cstring(got);")
            out += self.after
            out.append("}")
            return out
        else:
            out.append(f"  (void){call};")
        out.append("  matrix_after_call();")
        out += self.after
        out.append("}")
        return out


def callback_definition(name, ret, params, types):
    names = [f"a{i}" for i in range(len(params))]
    decl = ", ".join(f"{ctype} {n}" for ctype, n in zip(params, names))
    body = [f"  (void){n};" for n in names]
    audio = "audio" in name
    for ctype, n in zip(params, names):
        base, stars = base_of(ctype)
        if base == "platformpp_client_result" and stars == 1:
            body.append(f"  matrix_read_result({n});")
        elif ctype == "size_t":
            prev = params[names.index(n) - 1] if names.index(n) > 0 else ""
            if base_of(prev)[0] == "char":
                body.append(f"  matrix_read_text(a{names.index(n) - 1}, {n});")
            elif base_of(prev)[0] in types["structs"]:
                body.append(f"  matrix_read_bytes(a{names.index(n) - 1}, {n} * sizeof *a{names.index(n) - 1});")
            elif base_of(prev)[0] in types["opaque"]:
                body.append(f"  matrix_read_bytes((const void*)a{names.index(n) - 1}, {n} * sizeof(void*));")
    user_data = names[-1]
    body.append(f"  matrix_callback({user_data}, \"{name}\", {1 if audio else 0});")
    if ret == "void":
        return [f"static void matrix_cb_{name}({decl}) {{"] + body + ["}"]
    return [f"static {ret} matrix_cb_{name}({decl}) {{"] + body + ["  return 0;", "}"]


def generate(clang):
    include = generate_raw.INCLUDE
    ast = json.loads(generate_raw.run_clang(clang, ["-Xclang", "-ast-dump=json", "-fsyntax-only", "-I", include,
                                                    "-x", "c", generate_raw.HEADER]))
    model = generate_raw.Model(ast, {})
    types = classify(model)
    out = ["/* Generated by tests/c_api/call_matrix/generate_call_matrix.py from <platformpp/platformpp_c.h>: do",
           " * not edit. Every exported function, called with arguments of a given kind (call_matrix.h). */",
           "#include <math.h>", "#include <stdint.h>", "#include <string.h>", "", "#include \"call_matrix.h\"", ""]
    for name, ret, params, _ in model.delegates:
        if name == "platformpp_user_data_free_fn":
            continue
        out += callback_definition(name, ret, params, types)
        out.append("")
    functions = [f for f in model.functions if f[0] not in NOT_CALLED]
    order = [f for f in functions if f[0] not in STATE_CHANGERS] + \
        sorted((f for f in functions if f[0] in STATE_CHANGERS), key=lambda f: STATE_CHANGERS.index(f[0]))
    missing = [n for n in STATE_CHANGERS if n not in {f[0] for f in functions}]
    if missing:
        raise SystemExit(f"generate_call_matrix: STATE_CHANGERS names functions the header lacks: {missing}")
    for name, ret, params, node in order:
        out += Function(name, ret, params, node, types).render()
        out.append("")
    out.append("const matrix_function matrix_functions[] = {")
    for name, _, _, _ in order:
        out.append(f"    {{\"{name}\", call_{name}}},")
    out.append("};")
    out.append(f"const size_t matrix_function_count = {len(order)};")
    return "\n".join(out) + "\n"


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("output")
    parser.add_argument("--clang", default="clang")
    args = parser.parse_args()
    text = generate(args.clang)
    old = None
    if os.path.exists(args.output):
        with open(args.output) as f:
            old = f.read()
    if old != text:  # an unchanged file keeps its time: nothing is rebuilt
        with open(args.output, "w") as f:
            f.write(text)


if __name__ == "__main__":
    main()
