#!/usr/bin/env python3
"""Asserts, at compile time, that every C enum of the C ABI has the values of its C++ enum.

    c_api/enum_values.py           # rewrite c_api/src/enum_values.g.hpp
    c_api/enum_values.py --check   # fail with a diff when that file is stale, or an enum is unpaired

The C ABI passes enums by value (a C++ enumerator is cast to its C twin), so the two must agree value for value.
Both sides are read from clang's JSON AST: the C enums from c_api/include/platformpp/platformpp_c.h, the C++
enums from every public header in include/platformpp/. Enumerators are paired by name (`HTTPError` and
`PLATFORMPP_ERROR_TYPE_HTTP_ERROR` are the same name once case and underscores are dropped). The output is one
static_assert per C enumerator, included by c_api/src/platformpp_c.cpp; a C enumerator with no C++ twin, or a
C++ enumerator with no C twin, fails here unless PAIRS below says why. The C# enums are checked against the C
ones by the csharp_unit test (bindings/csharp/tests/UnitTests.cs), so all three agree.

Only the Python standard library and clang (tools/install-deps installs both) are needed.
"""
import argparse
import difflib
import glob
import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
C_INCLUDE = os.path.join(HERE, "include")
C_HEADER = os.path.join(C_INCLUDE, "platformpp", "platformpp_c.h")
CPP_INCLUDE = os.path.join(ROOT, "include")
OUTPUT = os.path.join(HERE, "src", "enum_values.g.hpp")

# Each C enum: its C++ twin, or None with the reason there is none.
PAIRS = {
    "platformpp_error_type": "platformpp::ErrorType",
    "platformpp_logging_severity": "platformpp::LoggingSeverity",
    "platformpp_authorization_token_type": "platformpp::AuthorizationTokenType",
    "platformpp_authentication_code_challenge_method": "platformpp::AuthenticationCodeChallengeMethod",
    "platformpp_integration_type": "platformpp::IntegrationType",
    "platformpp_authentication_external_auth_type": "platformpp::AuthenticationExternalAuthType",
    "platformpp_client_status": "platformpp::ClientStatus",
    "platformpp_client_error": "platformpp::ClientError",
    "platformpp_client_thread": "platformpp::ClientThread",
    "platformpp_lobby_member_flags": "platformpp::LobbyMemberFlags",
    "platformpp_channel_type": "platformpp::ChannelType",
    "platformpp_sku_type": "platformpp::SkuType",
    "platformpp_entitlement_type": "platformpp::EntitlementType",
    "platformpp_subscription_status": "platformpp::SubscriptionStatus",
    "platformpp_activity_type": "platformpp::ActivityTypes",
    "platformpp_status_display_type": "platformpp::StatusDisplayTypes",
    "platformpp_activity_action_type": "platformpp::ActivityActionTypes",
    "platformpp_activity_party_privacy": "platformpp::ActivityPartyPrivacy",
    "platformpp_status_type": "platformpp::StatusType",
    "platformpp_relationship_type": "platformpp::RelationshipType",
    "platformpp_relationship_group_type": "platformpp::RelationshipGroupType",
    "platformpp_avatar_type": "platformpp::UserHandle::AvatarType",
    "platformpp_call_status": "platformpp::Call::Status",
    "platformpp_call_error": "platformpp::Call::Error",
    "platformpp_audio_mode_type": "platformpp::AudioModeType",
    # C selectors for what C++ spells as separate members or types:
    "platformpp_activity_asset": None,  # Activity's four image slots: one setter per slot in C++
    "platformpp_relationship_action": None,  # one C function for C++'s Send/Accept/Reject/Cancel... calls
    "platformpp_interaction_type": "platformpp::backend::InteractionType",
    "platformpp_webhook_event_kind": None,  # C++: a PING is WebhookEvent::IsPing()
    "platformpp_webhook_event_data_type": None,  # C++: the index of WebhookEventData (asserted in platformpp_c_backend.cpp)
    "platformpp_game_stats_text_field": None,  # C++: GameStatsProfile's fields, one member each
    "platformpp_game_stats_count_field": None,
    "platformpp_game_stats_dynamic_field_type": None,  # C++: the alternative held by GameStatsDynamicField
}

# C++ enumerators the C enum lacks on purpose.
CPP_ONLY = {
    # The C ABI passes a channel's type through as an int32_t; its enum names the types a game meets.
    "platformpp::ChannelType": "the C enum names the channel types a game meets; the value passes through",
}

# C enumerators that are not values (the 32-bit width guard, "no value given").
C_ONLY_SUFFIXES = ("_FORCE_INT32", "_UNSET")


def run_clang(clang, args, stdin=None):
    try:
        return subprocess.run([clang] + args, check=True, capture_output=True, text=True, input=stdin).stdout
    except FileNotFoundError:
        sys.exit(f"enum_values: {clang} not found (tools/install-deps installs clang)")
    except subprocess.CalledProcessError as e:
        sys.exit(f"enum_values: clang failed:\n{e.stderr}")


def json_stream(text):
    """The concatenated JSON objects that -ast-dump-filter prints."""
    decoder = json.JSONDecoder()
    i = 0
    while True:
        while i < len(text) and text[i].isspace():
            i += 1
        if i >= len(text):
            return
        value, i = decoder.raw_decode(text, i)
        yield value


def constant_value(node):
    if "value" in node:
        return int(node["value"], 0)
    for child in node.get("inner", []):
        value = constant_value(child)
        if value is not None:
            return value
    return None


def collect_enums(nodes, scoped):
    """{qualified name: [(enumerator, value or None)]} of every named enum under `nodes`."""
    enums = {}

    def walk(node, scope):
        kind, name = node.get("kind"), node.get("name")
        if kind == "EnumDecl" and name and not node.get("isImplicit"):
            constants = [(c["name"], constant_value(c)) for c in node.get("inner", [])
                         if c.get("kind") == "EnumConstantDecl"]
            if constants:
                enums["::".join(scope + [name])] = constants
        if scoped and kind in ("NamespaceDecl", "CXXRecordDecl") and name:
            scope = scope + [name]
        for child in node.get("inner", []) or []:
            walk(child, scope)

    for node in nodes:
        walk(node, [])
    return enums


def c_enums(clang):
    ast = json.loads(run_clang(clang, ["-Xclang", "-ast-dump=json", "-fsyntax-only", "-I", C_INCLUDE, "-x", "c",
                                       C_HEADER]))
    return collect_enums([ast], scoped=False)


def cpp_enums(clang):
    headers = sorted(h for h in glob.glob(os.path.join(CPP_INCLUDE, "platformpp", "*.hpp"))
                     if os.path.basename(h) not in ("version.hpp", "platformpp.hpp"))
    source = "".join(f'#include "{h}"\n' for h in headers)
    text = run_clang(clang, ["-std=c++20", "-x", "c++", "-I", CPP_INCLUDE, "-Xclang", "-ast-dump=json", "-Xclang",
                             "-ast-dump-filter=platformpp", "-fsyntax-only", "-"], stdin=source)
    return collect_enums(json_stream(text), scoped=True)


def key(name):
    return name.replace("_", "").upper()


def generate(clang):
    c, cpp = c_enums(clang), cpp_enums(clang)
    problems, lines = [], []
    for c_name in sorted(c):
        if c_name not in PAIRS:
            problems.append(f"{c_name}: no C++ twin in PAIRS (name it, or say why there is none)")
            continue
        cpp_name = PAIRS[c_name]
        if cpp_name is None:
            continue
        if cpp_name not in cpp:
            problems.append(f"{c_name}: its twin {cpp_name} is not an enum of include/platformpp/")
            continue
        prefix = c_name.upper() + "_"
        cpp_by_key = {key(n): n for n, _ in cpp[cpp_name]}
        paired = set()
        lines.append(f"// {c_name} <-> {cpp_name}")
        for constant, _ in c[c_name]:
            if constant.endswith(C_ONLY_SUFFIXES):
                continue
            if not constant.startswith(prefix):
                problems.append(f"{constant}: does not start with {prefix}")
                continue
            twin = cpp_by_key.get(key(constant[len(prefix):]))
            if twin is None:
                problems.append(f"{constant}: {cpp_name} has no enumerator of that name")
                continue
            paired.add(twin)
            name = cpp_name.removeprefix("platformpp::")
            line = f"static_assert(static_cast<long long>({name}::{twin}) == {constant});"
            if len(line) > 110:  # wrapped as clang-format wraps it (.clang-format: 110 columns)
                line = f"static_assert(static_cast<long long>({name}::{twin}) ==\n              {constant});"
            lines.append(line)
        unpaired = [n for n, _ in cpp[cpp_name] if n not in paired]
        if unpaired and cpp_name not in CPP_ONLY:
            problems.append(f"{cpp_name}: {', '.join(unpaired)} missing from {c_name}")
    for c_name in PAIRS:
        if c_name not in c:
            problems.append(f"{c_name}: in PAIRS but not a C enum of the header")
    if problems:
        sys.exit("enum_values:\n  " + "\n  ".join(problems))
    header = ("// Generated by c_api/enum_values.py from the C and C++ headers: do not edit. Every C enumerator equals\n"
              "// its C++ twin, so the C ABI's casts between them keep the value.\n"
              "#pragma once\n\n#include <platformpp/platformpp_c.h>\n#include <platformpp/platformpp.hpp>\n\nnamespace platformpp::enum_values {\n\n")
    return header + "\n".join(lines) + "\n\n}  // namespace platformpp::enum_values\n"


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true")
    parser.add_argument("--clang", default=os.environ.get("CLANG", "clang"))
    args = parser.parse_args()
    text = generate(args.clang)
    if args.check:
        with open(OUTPUT, encoding="utf-8") as f:
            current = f.read()
        if current != text:
            diff = difflib.unified_diff(current.splitlines(True), text.splitlines(True), OUTPUT, "regenerated")
            sys.exit("enum_values: c_api/src/enum_values.g.hpp is stale (run c_api/enum_values.py):\n" + "".join(diff))
        print(f"enum_values: {text.count('static_assert')} enumerators asserted, the file is current")
        return
    with open(OUTPUT, "w", encoding="utf-8") as f:
        f.write(text)
    print(f"enum_values: wrote {OUTPUT} ({text.count('static_assert')} enumerators)")


if __name__ == "__main__":
    main()
