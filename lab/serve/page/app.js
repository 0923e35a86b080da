// SPDX-License-Identifier: MIT
// mstlab serve: the page. It draws nothing of its own: the trees are the
// "state" objects the server sends (mstlab watch --json's, from the
// engine the verdicts use), painted onto the lab's Graphviz drawing.
// Live, they come as Server-Sent Events; a finished run is asked for at
// the instant the slider names. window.mstlab is for the tests.
"use strict";

const S = {
  lab: null,          // /api/lab
  template: null,     // the drawing, parsed once
  cards: [],          // per tree slot: {root, svg, sub, flood}
  states: [],         // per tree slot: the latest state shown
  sel: "all",         // "all" or a tree slot
  ends: new Map(),    // "node:port" -> {link, end}
  linkDown: new Map(),// "link3" -> true
  latencies: [],      // {type, ns, at_ms}: capture time to arrival
  t: null,            // replay: the instant shown (ns, BigInt)
  painted: 0,         // states painted so far
  control: false,
  up: false,
};
window.mstlab = S;

const $ = (sel, root = document) => root.querySelector(sel);

function el(tag, attrs = {}, ...kids) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === "class") e.className = v;
    else if (k.startsWith("on")) e.addEventListener(k.slice(2), v);
    else e.setAttribute(k, v);
  }
  for (const k of kids) e.append(k);
  return e;
}

// ns are 19 digits, past a double's 53 bits: kept as strings (BigInt
// for arithmetic), so the instant asked for is the instant judged.
function parseExact(text) {
  return JSON.parse(text.replace(/"((?:[a-z_]+_)?ns)":(\d{16,})/g, '"$1":"$2"'));
}

async function getJSON(url, opts) {
  const r = await fetch(url, opts);
  const text = await r.text();
  const body = text ? parseExact(text) : {};
  if (!r.ok) throw new Error(body.error || r.statusText);
  return body;
}

function hms(ns) {
  const ms = Number(BigInt(ns) / 1000000n);
  return new Date(ms).toISOString().slice(11, 23);
}

function toast(text, bad) {
  const t = $("#toast");
  t.textContent = text;
  t.className = bad ? "bad" : "";
  t.hidden = false;
  clearTimeout(toast.timer);
  toast.timer = setTimeout(() => { t.hidden = true; }, 4000);
}

// ---- the drawing ---------------------------------------------------------

const ROLE_LETTER = { root: "R", designated: "D", alternate: "A",
  backup: "B", master: "M" };

function parseTemplate(svgText) {
  const doc = new DOMParser().parseFromString(svgText, "image/svg+xml");
  const svg = doc.documentElement;
  if (svg.nodeName !== "svg") return null;
  svg.removeAttribute("width");
  svg.removeAttribute("height");
  // A wide invisible stroke on each end: a link is easy to hit.
  for (const g of svg.querySelectorAll("g.port")) {
    const p = g.querySelector("path");
    if (p) {
      const hit = p.cloneNode();
      hit.setAttribute("class", "hit");
      g.append(hit);
    }
    const title = g.querySelector("title");
    if (title) title.remove();
  }
  for (const t of svg.querySelectorAll("g.node > title, g.graph > title"))
    t.remove();
  return svg;
}

function endOf(g) {
  const m = /(?:^|\s)e-(\d+)-(\d+)(?:\s|$)/.exec(g.getAttribute("class") || "");
  return m ? { link: +m[1], end: +m[2] } : null;
}

function treeName(slot) {
  return S.lab.trees[slot].tree;
}

function makeCard(slot) {
  const tr = S.lab.trees[slot];
  const title = el("h3", {}, tr.tree.toUpperCase(),
    el("span", { class: "dim" }, tr.msti ? `VLANs ${tr.vlans}` : "VLANs not in an MSTI"),
    el("span", { class: "tcb" }, "TC"));
  const sub = el("div", { class: "sub" });
  const flood = el("div", { class: "flood" });
  const root = el("div", { class: "card", "data-tree": tr.tree }, title, sub, flood);
  let svg = null;
  if (S.template) {
    svg = document.importNode(S.template, true);
    svg.addEventListener("click", (ev) => onLinkClick(ev, slot));
    root.append(svg);
  } else {
    root.append(el("p", { class: "dim" }, `No drawing: ${S.lab.svg_error || "?"}`));
  }
  return { root, svg, sub, flood };
}

function portKey(p) { return `${p.node}:${p.port}`; }

// One tree's state onto its card: every end its role, state and label.
function paint(slot) {
  const st = S.states[slot], card = S.cards[slot];
  if (!st || !card) return;
  card.root.classList.toggle("tc", !!st.tc);
  const blocked = st.ports.filter((p) => p.state === "discarding" ||
    p.state === "down").length;
  card.sub.textContent = st.root ?
    `root ${st.root} · ${blocked} port${blocked === 1 ? "" : "s"} blocked` :
    "no root heard yet";
  if (!card.svg) return;
  for (const n of card.svg.querySelectorAll("g.node.is-root"))
    n.classList.remove("is-root");
  const ri = S.lab.nodes.findIndex((n) => n.name === st.root);
  if (ri >= 0) {
    const n = card.svg.querySelector(`g.n-${ri}`);
    if (n) n.classList.add("is-root");
  }
  for (const p of st.ports) {
    const at = S.ends.get(portKey(p));
    if (!at) continue;
    const g = card.svg.querySelector(`g.e-${at.link}-${at.end}`);
    if (!g) continue;
    const cls = [...g.classList].filter((c) => !/^(role|st)-|^(tc|inferred)$/.test(c));
    cls.push(`role-${p.role}`, `st-${p.state}`);
    if (p.tc) cls.push("tc");
    if (p.inferred) cls.push("inferred");
    g.setAttribute("class", cls.join(" "));
    g.dataset.end = portKey(p);
    g.dataset.role = p.role;
    g.dataset.state = p.state;
    const text = g.querySelector("text");
    if (text) {
      const letter = ROLE_LETTER[p.role] || "";
      text.textContent = `${p.port}${letter ? " " + letter : ""}${p.inferred && letter ? "?" : ""}`;
    }
  }
  S.painted++;
}

function setState(st) {
  const slot = S.lab.trees.findIndex((t) => t.tree === st.tree);
  if (slot < 0) return;
  S.states[slot] = st;
  for (const p of st.ports)
    if (p.link) S.linkDown.set(p.link, p.state === "down");
  paint(slot);
}

function showTrees() {
  const views = $("#views");
  views.replaceChildren();
  views.classList.toggle("all", S.sel === "all");
  S.cards.forEach((c, slot) => {
    if (S.sel === "all" || S.sel === slot) views.append(c.root);
  });
  for (const b of document.querySelectorAll("#trees button"))
    b.classList.toggle("on", b.dataset.sel === String(S.sel));
}

function buildTrees() {
  const nav = $("#trees");
  const pick = (sel) => () => { S.sel = sel; showTrees(); };
  nav.append(el("button", { "data-sel": "all", onclick: pick("all") }, "All trees"));
  S.lab.trees.forEach((t, slot) => {
    nav.append(el("button", { "data-sel": String(slot), onclick: pick(slot) },
      t.tree.toUpperCase()));
    S.cards[slot] = makeCard(slot);
  });
  showTrees();
}

// ---- the event log -----------------------------------------------------------

const LOG_MAX = 400;

// A line of the log; live, only the newest LOG_MAX stay.
function logLine(text, cls, keepAll) {
  const log = $("#log");
  const li = el("li", { class: cls || "" }, text);
  log.append(li);
  while (!keepAll && log.children.length > LOG_MAX) log.firstChild.remove();
  log.scrollTop = log.scrollHeight;
}

// ---- controlling links ----------------------------------------------------------

let menuEnd = null;

function onLinkClick(ev, slot) {
  const g = ev.target.closest("g.port");
  if (!g || !S.control) return;
  const at = endOf(g);
  if (!at) return;
  const link = S.lab.links[at.link];
  const end = link.ends[at.end];
  menuEnd = `${end.node}:${end.port}`;
  const down = S.linkDown.get(link.link);
  $("#menu-title").textContent =
    `${link.link}: ${link.ends[0].node}:${link.ends[0].port} – ${link.ends[1].node}:${link.ends[1].port}`;
  for (const b of document.querySelectorAll("#menu button[data-action]"))
    b.disabled = (b.dataset.action === "restore") !== !!down;
  const m = $("#menu");
  m.hidden = false;
  m.style.left = `${Math.min(ev.clientX, innerWidth - 200)}px`;
  m.style.top = `${Math.min(ev.clientY, innerHeight - 160)}px`;
  ev.stopPropagation();
}

async function linkAction(end, action, mode) {
  const q = new URLSearchParams({ end, action });
  if (mode) q.set("mode", mode);
  try {
    const r = await getJSON(`/api/link?${q}`, { method: "POST" });
    toast(`${r.link} ${r.state}${r.mode ? ` (${r.mode})` : ""}`);
    return r;
  } catch (e) {
    toast(`${end} ${action}: ${e.message}`, true);
    throw e;
  }
}
S.linkAction = linkAction;

function setupMenu() {
  const m = $("#menu");
  m.addEventListener("click", (ev) => {
    const b = ev.target.closest("button");
    if (!b) return;
    m.hidden = true;
    if (b.dataset.action && menuEnd)
      linkAction(menuEnd, b.dataset.action, b.dataset.mode).catch(() => {});
  });
  document.addEventListener("click", (ev) => {
    if (!m.contains(ev.target)) m.hidden = true;
  });
  document.addEventListener("keydown", (ev) => {
    if (ev.key === "Escape") m.hidden = true;
  });
}

// ---- live ------------------------------------------------------------------------

function showFlows(f) {
  const body = $("#flows tbody");
  body.replaceChildren(...f.flows.map((x) => el("tr", {},
    el("td", {}, `${x.flow} ${x.from}→${x.to}`),
    el("td", {}, `${x.vid} (${x.tree})`),
    el("td", {}, x.running ? String(x.rx_per_s) : "stopped"),
    el("td", { class: x.outage_ms ? "out" : "" }, x.outage_ms ? `${x.outage_ms} ms` : "—"),
    el("td", {}, x.longest_ms ? `${x.longest_ms} ms` : "—"))));
  if (!f.flows.length)
    body.append(el("tr", {}, el("td", { colspan: "5", class: "dim" }, "no probe flow running")));
  S.cards.forEach((c, slot) => {
    const fl = f.floods.filter((x) => x.tree === treeName(slot));
    const now = fl.filter((x) => x.per_s > 0);
    c.root.classList.toggle("flooding", now.length > 0);
    c.flood.textContent = fl.length ? "flooded: " + fl.map((x) =>
      `VLAN ${x.vid} ${x.per_s}/s (${x.total} in all)`).join(", ") : "";
  });
  S.flows = f;
}

function setConn(text, cls) {
  const c = $("#conn");
  c.textContent = text;
  c.className = `badge ${cls || ""}`;
}

function live() {
  const es = new EventSource("/api/events");
  S.es = es;
  es.onopen = () => setConn(S.up ? "connected" : "lab down", S.up ? "live" : "bad");
  es.onerror = () => setConn("reconnecting…", "bad");
  es.addEventListener("hello", (e) => {
    const h = parseExact(e.data);
    S.up = h.up;
    $("#clock").textContent = `${hms(h.ns)} UTC`;
  });
  es.addEventListener("state", (e) => {
    const st = parseExact(e.data);
    setState(st);
    $("#clock").textContent = `${hms(st.ns)} UTC`;
  });
  es.addEventListener("change", (e) => {
    const at = performance.timeOrigin + performance.now();
    const nl = e.data.indexOf("\n");
    const c = parseExact(nl < 0 ? e.data : e.data.slice(0, nl));
    S.latencies.push({ type: c.type, ns: c.ns, at_ms: at });
    if (S.latencies.length > 20000) S.latencies.splice(0, 10000);
    if (c.type === "link") S.linkDown.set(c.link, c.state === "down");
    logLine(nl < 0 ? c.type : e.data.slice(nl + 1), c.type);
  });
  es.addEventListener("flows", (e) => showFlows(parseExact(e.data)));
  es.addEventListener("lab", () => {
    S.up = false;
    S.control = false;
    setConn("lab down", "bad");
    $("#hint").textContent = "The lab went down: this is its last state.";
  });
}

// ---- replay -------------------------------------------------------------------------

let asking = null, pending = null;

// Shows the trees at ns (a string of digits or BigInt): resolves once painted.
async function seek(ns) {
  S.t = BigInt(ns);
  const lab = S.lab, start = BigInt(lab.start_ns);
  $("#slider").value = String(Number((S.t - start) / 1000000n));
  $("#at").textContent = `${hms(S.t)} UTC`;
  cursor();
  pending = S.t;
  if (asking) return asking;
  asking = (async () => {
    while (pending !== null) {
      const t = pending;
      pending = null;
      const r = await getJSON(`/api/state?t=${t}`);
      if (pending === null) r.states.forEach(setState);
    }
    asking = null;
    replayLog();
  })();
  return asking;
}
S.seek = seek;

function replayLog() {
  const items = $("#log").children;
  let last = null;
  S.lab.events.forEach((e, i) => {
    const later = BigInt(e.ns) > S.t;
    items[i].classList.toggle("later", later);
    items[i].classList.remove("now");
    if (!later) last = items[i];
  });
  if (last) {	// scrolled within the log, not the page
    last.classList.add("now");
    const log = $("#log");
    log.scrollTop = last.offsetTop - log.offsetTop - log.clientHeight / 2;
  }
}

const NS = "http://www.w3.org/2000/svg";

function svgEl(tag, attrs) {
  const e = document.createElementNS(NS, tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  return e;
}

// x of an instant on the timeline, 0..1000.
function xOf(ns) {
  const a = BigInt(S.lab.start_ns), b = BigInt(S.lab.end_ns);
  const span = b > a ? b - a : 1n;
  return Number((BigInt(ns) - a) * 1000n / span);
}

function cursor() {
  const c = $("#timeline .cursor");
  if (c && S.t !== null) {
    const x = xOf(S.t);
    c.setAttribute("x1", x);
    c.setAttribute("x2", x);
  }
}

// Where a check's verdict was decided: its evidence, else its instant.
function checkAt(c) {
  return c.evidence_ns || c.at_ns || null;
}

function buildTimeline() {
  const lab = S.lab, tl = $("#timeline");
  tl.setAttribute("viewBox", "0 0 1000 34");
  tl.setAttribute("preserveAspectRatio", "none");
  for (const sc of lab.scenarios || []) {
    if (!sc.start_ns) continue;
    const x = xOf(sc.start_ns), w = Math.max(1, xOf(sc.end_ns) - x);
    const r = svgEl("rect", { class: "sc", x, y: 0, width: w, height: 14 });
    r.append(svgEl("title", {}));
    r.firstChild.textContent = `scenario ${sc.name}: ${sc.result}`;
    tl.append(r);
  }
  for (const e of lab.events) {
    const x = xOf(e.ns);
    const l = svgEl("line", { class: `ev ${e.kind}`, x1: x, x2: x, y1: 0, y2: 14 });
    l.append(svgEl("title", {}));
    l.firstChild.textContent = `${hms(e.ns)} ${e.kind} ${e.arg}`;
    tl.append(l);
  }
  for (const c of lab.checks) {
    const at = checkAt(c);
    if (!at) continue;
    const x = xOf(at), y = c.result === "fail" ? 26 : 22;
    const d = svgEl("path", { class: `ck ${c.result}`,
      d: `M${x} ${y - 6}L${x + 4} ${y}L${x} ${y + 6}L${x - 4} ${y}Z` });
    d.append(svgEl("title", {}));
    d.firstChild.textContent = `${c.result}: ${c.scenario} ${c.name} ${c.tree || ""} ${c.message || ""}`;
    d.addEventListener("click", () => seek(at));
    tl.append(d);
  }
  tl.append(svgEl("line", { class: "cursor", x1: 0, x2: 0, y1: 0, y2: 34 }));
}

function buildChecks() {
  const lab = S.lab, list = $("#checks");
  const order = { fail: 0, skip: 1, pass: 2 };
  const checks = [...lab.checks].sort((a, b) => order[a.result] - order[b.result]);
  const failed = checks.filter((c) => c.result === "fail").length;
  $("#checks-count").textContent = lab.summary ?
    `${checks.length}, ${failed} failed` : "(no summary.json: mstlab verdict RUN_DIR)";
  for (const c of checks) {
    const at = checkAt(c);
    const li = el("li", { class: c.result, title: c.message || c.text || "" },
      `${c.result.toUpperCase()} ${c.scenario} ${c.name}${c.tree ? ` [${c.tree}]` : ""}${c.link ? ` [${c.link}]` : ""}`);
    if (at) {
      li.dataset.at = at;
      li.addEventListener("click", () => seek(at));
    }
    list.append(li);
  }
  $("#checks-box").hidden = false;
}

let playing = null;

function play() {
  const b = $("#play");
  if (playing) {
    clearInterval(playing);
    playing = null;
    b.textContent = "▶";
    return;
  }
  b.textContent = "❚❚";
  let wall = performance.now();
  playing = setInterval(() => {
    const now = performance.now();
    let t = S.t + BigInt(Math.round((now - wall) * 1e6));
    wall = now;
    if (t >= BigInt(S.lab.end_ns)) { t = BigInt(S.lab.end_ns); play(); }
    seek(t);
  }, 200);
}

function replay() {
  const lab = S.lab;
  $("#replay").hidden = false;
  $("#flows-box").hidden = true;
  $("#views").classList.add("replay");
  const slider = $("#slider");
  slider.max = String(Number((BigInt(lab.end_ns) - BigInt(lab.start_ns)) / 1000000n));
  slider.addEventListener("input", () =>
    seek(BigInt(lab.start_ns) + BigInt(slider.value) * 1000000n));
  $("#play").addEventListener("click", play);
  for (const e of lab.events)
    logLine(`${hms(e.ns)} ${e.kind} ${e.arg}`, e.kind.startsWith("link") ? "link" : "", true);
  buildTimeline();
  buildChecks();
  $("#conn").hidden = true;
  $("#hint").textContent = "A finished run: drag the slider, or click a check to see the trees when it was decided.";
  const firstFail = lab.checks.find((c) => c.result === "fail" && checkAt(c));
  return seek(firstFail ? checkAt(firstFail) : lab.end_ns);
}

// ---- start -------------------------------------------------------------------------

async function main() {
  const lab = await getJSON("/api/lab");
  S.lab = lab;
  S.control = lab.control;
  S.up = lab.up;
  document.title = `mstlab ${lab.lab}`;
  $("#lab").textContent = lab.lab;
  $("#run").textContent = lab.run;
  const mode = $("#mode");
  mode.textContent = lab.mode;
  mode.className = `badge ${lab.mode}`;
  lab.links.forEach((l, i) => l.ends.forEach((e, k) =>
    S.ends.set(`${e.node}:${e.port}`, { link: i, end: k })));
  S.template = lab.svg ? parseTemplate(lab.svg) : null;
  buildTrees();
  setupMenu();
  if (lab.mode === "replay") {
    await replay();
  } else {
    $("#hint").textContent = S.control ?
      "Click a link to fail or restore it." : "Read-only: links cannot be failed from here.";
    live();
  }
  S.ready = true;
}

main().catch((e) => {
  setConn("error", "bad");
  toast(String(e.message || e), true);
});
