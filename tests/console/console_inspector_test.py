#!/usr/bin/env python3
"""The web console's inspector in a real browser (tools/emulator/README.md, "Inspector").

The same harness as console_browser_test.py (Debian's chromium, headless, through chromedriver; Python's
standard library only), whose helpers it imports. The page is opened on the inspector first
(/_emulator/ui?view=inspector), so that it records every connection the players then open; while two SDK
Clients (console_players) log in, chat and call:

  1. the event log's lines appear live: the admin calls, the players' HTTP requests and Gateway frames
     (IDENTIFY, READY, LOBBY_MESSAGE_CREATE), in order of seq;
  2. filtered by a user, every row names that user (and fewer rows than unfiltered); by a route
     ("POST /lobbies/*/messages"), only those requests; by an event name, only those frames;
  3. a message's request opens beside its answer: the body sent, the status and the message the emulator
     made; its token is a [redacted#...] marker, and no token the test holds is anywhere in the page;
  4. the lobby and its call show live, with the DAVE protocol and epoch the overview's call document holds,
     and the history of the call's changes; the voice gateway's DAVE frames are in the list;
  5. "+1 h" moves the emulator's clock an hour (GET /_emulator/clock says so), and a 503 fault made from the
     selected request's route is in GET /_emulator/faults and answers the next such request with 503, which
     the list then shows;
  6. the layout at two window sizes (1440x900 and 900x1000): the panel's key elements are there, visible,
     inside the viewport and do not overlap; the wide one has the list, the event and the side column side by
     side, the narrow one the list above the other two. Compared as geometry (getBoundingClientRect), not
     pixels (chromium versions draw text differently). Screenshots: <artifacts>/inspector-wide.png and
     inspector-narrow.png.

Exit 0: passed; 1: failed; 77: chromium or chromedriver is not installed (failed instead under CI=true).

  console_inspector_test.py --emulator PATH --players PATH --artifacts build/artifacts
"""
import json
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import console_browser_test as base  # noqa: E402 (the harness: emulator, browser, players)
from console_browser_test import check, wait_for  # noqa: E402

SIZES = (("wide", 1440, 900), ("narrow", 900, 1000))

# The inspector as a user sees it: the rows of the list, and the status line.
ROWS = """
return [...document.querySelectorAll('#insp-rows tr.insp-row')].map((tr) => ({
  seq: Number(tr.dataset.seq), kind: tr.dataset.kind, name: tr.dataset.name, dir: tr.dataset.dir,
  users: tr.dataset.users ? tr.dataset.users.split(' ') : [], what: tr.querySelector('.what').textContent,
  status: tr.querySelector('.status').textContent, failed: tr.classList.contains('failed'),
}));
"""

STATUS = """
const s = document.getElementById('insp-status');
return {state: s.dataset.state, kept: Number(s.dataset.kept), dropped: Number(s.dataset.dropped), text: s.textContent};
"""

DETAIL = """
const d = document.getElementById('insp-detail');
const text = (css) => d.querySelector(css)?.textContent ?? null;
return {head: text('.insp-detail-head'), request: text('.insp-request'), answer: text('.insp-answer'),
        request_json: text('.insp-request pre.json'), answer_json: text('.insp-answer pre.json'),
        all: d.textContent};
"""

LOBBY = """
const card = document.querySelector(`#insp-lobbies article.insp-lobby[data-lobby-id="${arguments[0]}"]`);
if (!card) return null;
const call = card.querySelector('.insp-call');
return {members: [...card.querySelectorAll('.insp-members [data-user-id]')].map((e) => e.dataset.userId),
        call: call ? {epoch: Number(call.dataset.epoch), protocol: Number(call.dataset.protocol),
                      e2ee: call.dataset.e2ee, members: Number(call.dataset.members),
                      text: call.textContent} : null,
        history: [...card.querySelectorAll('ol.insp-history li')].map((li) => li.textContent)};
"""

# The overview's call document, as the page holds it (data attributes of the Calls panel).
OVERVIEW_CALL = """
const a = document.querySelector(`#calls article.call[data-lobby-id="${arguments[0]}"]`);
return a ? {e2ee: a.dataset.e2ee, text: a.textContent} : null;
"""

# The geometry of the inspector's key elements: present, visible, inside the viewport, not overlapping.
GEOMETRY = """
const names = {toolbar: '#insp-toolbar', filters: '#insp-filters', list: '.insp-events', detail: '.insp-detail-pane',
               side: '.insp-side', controls: '#insp-controls', lobbies_title: '#insp-lobbies-title',
               request: '.insp-request', answer: '.insp-answer', header: 'header.top'};
const out = {viewport: {width: window.innerWidth, height: window.innerHeight},
             scroll_width: document.documentElement.scrollWidth, elements: {}};
for (const [name, css] of Object.entries(names)) {
  const e = document.querySelector(css);
  if (!e) { out.elements[name] = null; continue; }
  const r = e.getBoundingClientRect();
  const style = getComputedStyle(e);
  out.elements[name] = {left: r.left, top: r.top, right: r.right, bottom: r.bottom, width: r.width, height: r.height,
                        visible: style.visibility === 'visible' && style.display !== 'none' && r.width > 0 && r.height > 0};
}
return out;
"""


# The elements inside a pane that scrolls, and that pane.
INSIDE_PANES = {"request": "detail", "answer": "detail", "controls": "side", "lobbies_title": "side"}


def overlaps(a, b):
    return a["left"] < b["right"] - 0.5 and b["left"] < a["right"] - 0.5 and \
        a["top"] < b["bottom"] - 0.5 and b["top"] < a["bottom"] - 0.5


def check_layout(name, geometry):
    """The key elements are there, visible, in the viewport, apart; the panes placed as the size wants."""
    viewport = geometry["viewport"]
    elements = geometry["elements"]
    for key, box in elements.items():
        check(box is not None and box["visible"], f"{name}: {key} is there and visible")
        # What sits in a pane that scrolls (the exchange, the side column's boxes) may go on below the window:
        # its top and sides must be in it, and its start in view.
        scrolled = key in INSIDE_PANES
        bottom = box["top"] + min(box["height"], 24) if scrolled else box["bottom"]
        inside = box["left"] >= -0.5 and box["top"] >= -0.5 and box["right"] <= viewport["width"] + 0.5 and \
            bottom <= viewport["height"] + 0.5
        check(inside, f"{name}: {key} inside the {viewport['width']}x{viewport['height']} viewport {box}")
    check(geometry["scroll_width"] <= viewport["width"], f"{name}: nothing wider than the window")
    apart = ("header", "toolbar", "filters", "list", "detail", "side")
    for i, a in enumerate(apart):
        for b in apart[i + 1:]:
            check(not overlaps(elements[a], elements[b]), f"{name}: {a} and {b} do not overlap")
    check(not overlaps(elements["request"], elements["answer"]), f"{name}: the request and its answer do not overlap")
    check(not overlaps(elements["controls"], elements["lobbies_title"]), f"{name}: the controls and the lobbies apart")
    for inner, outer in INSIDE_PANES.items():
        a, b = elements[inner], elements[outer]
        check(a["left"] >= b["left"] - 0.5 and a["right"] <= b["right"] + 0.5 and a["top"] >= b["top"] - 0.5 and
              a["top"] + min(a["height"], 24) <= b["bottom"] + 0.5, f"{name}: {inner} starts within {outer}, in view")
    lst, detail, side = elements["list"], elements["detail"], elements["side"]
    if name == "wide":
        check(abs(lst["top"] - detail["top"]) < 1 and abs(detail["top"] - side["top"]) < 1 and
              lst["right"] <= detail["left"] and detail["right"] <= side["left"],
              "wide: the list, the event and the side column side by side")
        check(elements["request"]["right"] <= elements["answer"]["left"], "wide: the request beside its answer")
    else:
        check(detail["top"] >= lst["bottom"] and side["top"] >= lst["bottom"] and abs(detail["top"] - side["top"]) < 1,
              "narrow: the list above the event and the side column, which are side by side")
        check(lst["width"] > detail["width"] + side["width"], "narrow: the list across the whole width")
    check(lst["height"] >= 150, f"{name}: the list has room ({lst['height']:.0f} px)")


def set_viewport(browser, width, height):
    """Sizes the window so that the page's viewport is width x height."""
    browser.call("POST", "/window/rect", {"width": width, "height": height})
    for _ in range(3):
        inner = browser.run("return [window.innerWidth, window.innerHeight]")
        if inner == [width, height]:
            return
        rect = browser.call("GET", "/window/rect")
        browser.call("POST", "/window/rect", {"width": rect["width"] + width - inner[0],
                                              "height": rect["height"] + height - inner[1]})
    inner = browser.run("return [window.innerWidth, window.innerHeight]")
    check(inner == [width, height], f"the viewport is {width}x{height} ({inner})")


def scenario(args, work, emulator, held, figures):
    browser = held["browser"]
    started = time.monotonic()
    connection = emulator.connection
    # The inspector first: every connection opened from now on is recorded.
    browser.open(emulator.web_base + "/_emulator/ui?view=inspector#admin_token=" + connection["admin_token"])
    wait_for("the inspector live", lambda: browser.run(STATUS)["state"] == "live", 10)
    check(browser.run("return document.getElementById('overview').hidden && !document.getElementById('inspector').hidden"),
          "?view=inspector opens the inspector")
    check(browser.run("return location.search") == "?view=inspector" and browser.run("return location.hash") == "",
          "the view stays in the address, the admin token does not")

    app = emulator.admin("POST", "/apps", {"name": "Inspector Test Game"})
    ada = emulator.admin("POST", "/users", {"username": "inspect.ada", "global_name": "Ada"})
    bo = emulator.admin("POST", "/users", {"username": "inspect.bo", "global_name": "Bo"})
    scopes = "openid sdk.social_layer"
    ada_token = emulator.admin("POST", "/tokens", {"user_id": ada["id"], "app_id": app["id"], "scopes": scopes})
    bo_token = emulator.admin("POST", "/tokens", {"user_id": bo["id"], "app_id": app["id"], "scopes": scopes})
    emulator.admin("POST", "/friendships", {"user_id": ada["id"], "other_user_id": bo["id"]})
    secrets = [ada_token["access_token"], bo_token["access_token"], ada_token.get("refresh_token"),
               app["bot_token"], app.get("client_secret"), connection["admin_token"]]

    # 1. Live: the admin calls at once, then the players' requests and frames.
    wait_for("the admin calls in the list", lambda: any(
        r["kind"] == "http" and "POST /_emulator/users" in r["what"] for r in browser.run(ROWS)), 5)
    check(True, "the admin API calls appear in the list as they are made")
    players = base.Players(args.players, emulator.connection_file, app["id"],
                           [ada_token["access_token"], bo_token["access_token"]], work)
    held["players"] = players
    players.expect("ready", 30)
    players.send("join inspector-test-lobby")
    lobby_id = players.expect("joined")["lobby_id"]
    said_at = time.monotonic()
    players.send(f"say 0 {base.FRIENDLY_MESSAGE}")
    players.expect("said")
    players.send("say 1 hello from Bo")
    players.expect("said")

    def messages_listed():
        rows = browser.run(ROWS)
        dispatched = [r for r in rows if r["kind"] == "gateway" and r["name"] == "LOBBY_MESSAGE_CREATE"]
        posted = [r for r in rows if r["kind"] == "http" and r["what"].startswith("POST /lobbies/")
                  and r["what"].endswith("/messages")]
        return rows if len(posted) >= 2 and dispatched else None

    rows = wait_for("both messages' requests and their dispatch in the list", messages_listed, 10)
    figures["say_to_inspector_ms"] = round((time.monotonic() - said_at) * 1000)
    names = {r["name"] for r in rows if r["kind"] == "gateway"}
    check({"IDENTIFY", "READY", "HELLO"} <= names, f"the players' Gateway frames are listed: {sorted(names)[:12]}")
    seqs = [r["seq"] for r in rows]
    check(seqs == sorted(seqs) and len(set(seqs)) == len(seqs), "the rows are in the log's order, once each")
    check(browser.run(STATUS)["dropped"] == 0, "nothing dropped")

    # 2. Filters.
    total = browser.run(STATUS)["kept"]
    browser.select("#insp-user", bo["id"])
    filtered = wait_for("the rows of Bo", lambda: (lambda r: r if r and len(r) < total else None)(browser.run(ROWS)), 5)
    check(all(bo["id"] in r["users"] for r in filtered),
          f"filtered by a user: {len(filtered)} of {total} lines, each of them Bo's")
    check(any(r["kind"] == "gateway" for r in filtered) and any(r["kind"] == "http" for r in filtered),
          "Bo's requests and frames both")
    browser.select("#insp-user", "")
    browser.run("const i = document.getElementById('insp-route'); i.value = arguments[0];"
                "i.dispatchEvent(new Event('input'));", "POST /lobbies/*/messages")
    posted = wait_for("only the message requests", lambda: (lambda r: r if r and all(
        x["kind"] == "http" for x in r) else None)(browser.run(ROWS)), 5)
    check(len(posted) == 2 and all(r["what"] == f"POST /lobbies/{lobby_id}/messages" for r in posted),
          f"filtered by a route: the two message requests {[r['what'] for r in posted]}")
    browser.run("const i = document.getElementById('insp-route'); i.value = '';"
                "const e = document.getElementById('insp-event'); e.value = 'LOBBY_MESSAGE_CREATE';"
                "e.dispatchEvent(new Event('input'));")
    events = wait_for("only LOBBY_MESSAGE_CREATE", lambda: (lambda r: r if r and all(
        x["name"] == "LOBBY_MESSAGE_CREATE" for x in r) else None)(browser.run(ROWS)), 5)
    check(True, f"filtered by an event name: {len(events)} LOBBY_MESSAGE_CREATE rows")
    browser.run("const e = document.getElementById('insp-event'); e.value = '';"
                "const i = document.getElementById('insp-route'); i.value = 'POST /lobbies/*/messages';"
                "i.dispatchEvent(new Event('input'));")

    # 3. A request beside its answer.
    first = wait_for("the message rows again", lambda: (lambda r: r[0] if len(r) == 2 else None)(browser.run(ROWS)), 5)
    browser.click(f'#insp-rows tr[data-seq="{first["seq"]}"]')
    detail = wait_for("the exchange opened", lambda: (lambda d: d if d["answer"] else None)(browser.run(DETAIL)), 5)
    request, answer = json.loads(detail["request_json"]), json.loads(detail["answer_json"])
    check(request.get("content") == base.FRIENDLY_MESSAGE, f"the request's body, as JSON: {request}")
    status = detail["answer"].removeprefix("Answer").strip()[:3]
    check(answer.get("content") == base.FRIENDLY_MESSAGE and answer.get("id") and status in ("200", "201"),
          f"beside it the answer: {status} and the message made ({answer.get('id')})")
    check("Bearer [redacted#" in detail["request"], "the request's token shows as a marker")
    page_text = browser.run("return document.documentElement.textContent + JSON.stringify(localStorage) + "
                            "JSON.stringify(Object.keys(sessionStorage))")
    check(not any(secret and secret in page_text for secret in secrets),
          "no token, secret or admin token anywhere in the page")

    # 4. The lobby and its call, with its DAVE epoch.
    check(browser.run(LOBBY, lobby_id) is not None, "the lobby is shown")
    wait_for("both players in the lobby", lambda: (lambda l: l if l and {ada["id"], bo["id"]} <= set(l["members"])
                                                   else None)(browser.run(LOBBY, lobby_id)), 5)
    players.send("call")
    in_call = players.expect("in_call", 30)
    check(in_call["e2ee"], "the players' call is end-to-end encrypted")

    def call_shown():
        lobby = browser.run(LOBBY, lobby_id)
        call = lobby and lobby["call"]
        return lobby if call and call["e2ee"] == "true" and call["members"] == 2 and call["epoch"] >= 1 else None

    lobby = wait_for("the call, end-to-end encrypted, with its epoch", call_shown, 15)
    overview = browser.run(OVERVIEW_CALL, lobby_id)
    check(overview and overview["e2ee"] == "true" and f"epoch {lobby['call']['epoch']}" in overview["text"] and
          f"DAVE v{lobby['call']['protocol']}" in overview["text"],
          f"the inspector's call: {lobby['call']['text']} (the call document says the same: {overview and overview['text']})")
    check(lobby["call"]["protocol"] >= 1, "the DAVE protocol version is shown")
    check(any("call started" in h for h in lobby["history"]) and any("DAVE" in h for h in lobby["history"]),
          f"the call's history: {lobby['history']}")
    browser.run("const i = document.getElementById('insp-route'); i.value = '';"
                "const k = document.getElementById('insp-kind'); k.value = 'voice';"
                "k.dispatchEvent(new Event('change'));")
    voice = wait_for("the voice gateway's DAVE frames", lambda: (lambda r: r if any(
        x["name"].startswith("DAVE_") for x in r) else None)(browser.run(ROWS)), 10)
    check(True, f"the voice gateway's DAVE frames are listed: {sorted({r['name'] for r in voice if r['name'].startswith('DAVE_')})}")

    # 5. A clock jump and a fault from the page.
    before = emulator.admin("GET", "/clock")["now_ms"]
    browser.click("#insp-clock-1h")
    wait_for("the emulator's clock an hour on", lambda: emulator.admin("GET", "/clock")["now_ms"] >= before + 3600000, 5)
    check(True, "\"+1 h\" moved the emulator's clock an hour (GET /_emulator/clock)")
    shown_ms = wait_for("the inspector's clock", lambda: (lambda ms: ms if ms and int(ms) >= before + 3600000 else None)(
        browser.run("return document.getElementById('insp-clock-now').dataset.ms")), 5)
    check(True, f"the inspector shows the new time ({shown_ms})")
    browser.run("const k = document.getElementById('insp-kind'); k.value = '';"
                "const i = document.getElementById('insp-route'); i.value = 'POST /lobbies/*/messages';"
                "i.dispatchEvent(new Event('input'));")
    first = wait_for("the message rows", lambda: (lambda r: r[0] if len(r) >= 2 else None)(browser.run(ROWS)), 5)
    browser.click(f'#insp-rows tr[data-seq="{first["seq"]}"]')
    wait_for("the fault button", lambda: browser.run("return !!document.getElementById('insp-fault-this')"), 5)
    browser.click("#insp-fault-this")
    route = browser.run("return document.getElementById('insp-fault-route').value")
    check(route == "POST /lobbies/*/messages", f"the request's route for a fault: {route}")
    browser.select("#insp-fault-type", "5xx")
    browser.click("#insp-fault-add")
    faults = wait_for("the fault in the admin API", lambda: emulator.admin("GET", "/faults")["faults"], 5)
    check(len(faults) == 1 and faults[0]["route"] == route and faults[0]["status"] == 503,
          f"the page made the fault: {faults}")
    wait_for("the fault listed in the inspector", lambda: "POST /lobbies/*/messages" in browser.run(
        "return document.getElementById('insp-faults').textContent"), 5)
    status, body = emulator.api("POST", f"/lobbies/{lobby_id}/messages", {"content": "faulted"},
                                token=ada_token["access_token"])
    check(status == 503, f"the emulator applies it: the next message request answers {status} {body}")
    failed = wait_for("the 503 in the list", lambda: [r for r in browser.run(ROWS) if r["status"].startswith("503")], 5)
    check(failed[0]["failed"], "the list marks it failed")
    check(emulator.admin("GET", "/faults")["faults"] == [], "the fault was used up")
    wait_for("the inspector's fault list empty again", lambda: "No HTTP faults." in browser.run(
        "return document.getElementById('insp-faults').textContent"), 5)
    check(True, "the inspector's fault list follows: the fault is gone from it")

    # 6. The layout at two sizes, an exchange open.
    browser.click(f'#insp-rows tr[data-seq="{first["seq"]}"]')
    browser.call("POST", "/actions", {"actions": [{
        "type": "pointer", "id": "mouse", "parameters": {"pointerType": "mouse"},
        "actions": [{"type": "pointerMove", "x": 1, "y": 1, "origin": "viewport"}]}]})
    for name, width, height in SIZES:
        set_viewport(browser, width, height)
        time.sleep(0.2)  # a frame or two to lay out
        geometry = browser.run(GEOMETRY)
        check_layout(name, geometry)
        path = os.path.join(args.artifacts, f"inspector-{name}.png")
        png = browser.screenshot(path)
        check(png.startswith(b"\x89PNG") and len(png) > 10000, f"screenshot saved: {path} ({len(png)} bytes)")
        figures[f"layout_{name}"] = {key: [round(box["left"]), round(box["top"]), round(box["width"]), round(box["height"])]
                                     for key, box in geometry["elements"].items() if box}

    errors = [entry for entry in browser.console_log()
              if entry.get("level") == "SEVERE" and "/_emulator/ui/live" not in entry.get("message", "")
              and "503" not in entry.get("message", "")]
    check(not errors, f"no errors in the browser console {errors}")
    figures["total_s"] = round(time.monotonic() - started, 1)


def main():
    args = base.command_line(lambda parser: parser.add_argument(
        "--artifacts", required=True, help="where inspector-wide.png and inspector-narrow.png go"))
    return base.run_test(args, scenario, "console-inspector-")


if __name__ == "__main__":
    sys.exit(main())
