// The SchemaBrowser's view (anywidget ES module, no build step). The kernel holds the tree;
// this draws the rows of its window, asks for others by setting `window`, and turns clicks
// and keys into trait changes: selected, hit, opened, search, search_more, query and
// run_requests. As the user types in the jq box it asks the kernel (messages, each tagged
// with the key's generation) what may come next, shown in a listbox, and for a preview
// once the keys pause; an answer older than the newest key is never drawn. It keeps every
// unmodified key it receives (JupyterLab's command-mode shortcuts never see them) and says
// so when its kernel no longer answers.

const ROW = 22; // px per row
const OVERSCAN = 30; // rows asked for beyond the visible ones
const ANSWER_MS = 4000; // a kernel that does not answer a ping within this is gone (or busy)
const TOAST_MS = 2500;
const PREVIEW_MS = 150; // quiet after a key before the preview is asked for

function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (key === "class") node.className = value;
    else if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else node.setAttribute(key, value);
  }
  for (const child of children) node.append(child);
  return node;
}

async function copyText(text) {
  try {
    await navigator.clipboard.writeText(text);
  } catch {
    const area = el("textarea");
    area.value = text;
    document.body.append(area);
    area.select();
    document.execCommand("copy");
    area.remove();
  }
}

// The one-line key legend under the tree: about 560 px, one line where the notebook is
// 1000 px wide; the keys a notebook user knows already show only where there is room
// (tree.css hides .jqm-key-more in a narrow widget).
const KEYS = [[["↑↓←→"], "move, open"], [["/"], "search"],
  [["n", "N"], "next, previous"], [["c"], "copy path"], [["p"], "pointer"],
  [["Shift+Enter"], "run cell", "jqm-key-more"]];

// Keys left to the notebook: focus moves and running the cell.
function notebookKey(event) {
  return event.ctrlKey || event.metaKey || event.altKey || event.key === "Tab" ||
    (event.key === "Enter" && event.shiftKey);
}

function render({ model, el: host }) {
  const uid = model.get("uid");
  // the static snapshot beside the live view is for saved notebooks: hide it while live
  const hide = el("style");
  hide.textContent =
    `.jp-OutputArea-child:has(.jqmagic-snapshot[data-uid="${uid}"]),` +
    `.output_area:has(.jqmagic-snapshot[data-uid="${uid}"]),` +
    `.jqmagic-snapshot[data-uid="${uid}"] { display: none !important; }`;
  document.head.append(hide);

  // data-lm-suppress-shortcuts on each focusable element: Lumino looks for it from the
  // focused element up to the first element its shortcut's selector matches
  const quiet = { "data-lm-suppress-shortcuts": "true" };
  const search = el("input", { ...quiet, class: "jqm-search", type: "search",
    placeholder: "search keys and values  ( / ; n N: next, previous )",
    "aria-label": "search keys and values" });
  const note = el("div", { class: "jqm-note", "aria-live": "polite" });
  const spacer = el("div", { class: "jqm-spacer", role: "presentation" });
  const tree = el("div", { ...quiet, class: "jqm-tree", tabindex: "0", role: "tree",
    "aria-label": `schema of ${model.get("title")}` }, spacer);
  const details = el("table", { class: "jqm-details" });
  const toast = el("div", { class: "jqm-toast", role: "status" });
  const copyJq = el("button", { class: "jqm-copy-jq", title: "copy the jq path (c)",
    onclick: () => copy("jq") }, "copy jq path");
  const copyPointer = el("button", { class: "jqm-copy-pointer",
    title: "copy the JSON Pointer (p)", onclick: () => copy("pointer") }, "copy pointer");
  // a %jq line that reads the selected node, where the source has a name a line can use
  const copyLine = el("button", { class: "jqm-copy-line",
    title: "copy a %jq line that reads this node", onclick: () => copy("line") },
  "copy %jq line");
  if (!model.get("source_word")) copyLine.hidden = true;
  // the jq box: a combobox whose listbox offers what may come next (ARIA 1.2's pattern)
  const offersId = `jqm-${uid}-offers`;
  const jq = el("input", { ...quiet, class: "jqm-jq", type: "text", role: "combobox",
    "aria-label": "jq filter", "aria-autocomplete": "list", "aria-expanded": "false",
    "aria-controls": offersId, autocomplete: "off", spellcheck: "false",
    placeholder: "jq filter on the selected node: Tab completes, Enter runs, Escape returns" });
  const offerList = el("ul", { class: "jqm-offers", id: offersId, role: "listbox",
    "aria-label": "what may come next", hidden: "" });
  const caret = el("div", { class: "jqm-caret", "aria-hidden": "true" });
  const problem = el("pre", { class: "jqm-problem", role: "status" });
  const status = el("div", { class: "jqm-status", "aria-live": "polite" });
  const busy = el("span", { class: "jqm-busy", "aria-live": "polite" });
  const output = el("div", { class: "jqm-output" });
  const matches = el("div", { class: "jqm-matches", role: "list",
    "aria-label": "matches of the search" });
  const legend = el("div", { class: "jqm-keys" }, ...KEYS.map(([keys, what, more], i) =>
    el("span", { class: more || "jqm-key" }, i ? " · " : "", ...keys.map((k) => el("kbd", {}, k)),
      ` ${what}`)));
  const gone = el("div", { class: "jqm-gone", role: "alert" });
  const root = el("div", { ...quiet, class: "jqm-root tex2jax_ignore mathjax_ignore" },
    gone,
    el("div", { class: "jqm-bar" }, el("b", { class: "jqm-title" }, model.get("title")),
      search, note),
    el("div", { class: "jqm-main" }, tree,
      // the copy buttons first: always in view, whatever the details' length
      el("div", { class: "jqm-side" },
        el("div", { class: "jqm-buttons" }, copyJq, copyPointer, copyLine, toast), matches,
        details)),
    legend, el("div", { class: "jqm-query" }, el("div", { class: "jqm-box" }, jq, offerList),
      busy), caret, problem, status, output);
  host.append(root);

  let cache = new Map(); // row index -> row
  let asked = null;
  let cursor = model.get("cursor"); // ahead of the kernel while keys come fast
  let pending = null; // a row index to select once the kernel has sent it
  let matchIndex = -1; // the match n / N chose last
  let toastTimer = null;

  // -- is the kernel still there? --------------------------------------------------------
  let pings = 0;
  let waiting = null; // the timer of the unanswered ping
  let lastPing = 0;

  function ping(now = false) {
    if (waiting !== null || (!now && Date.now() - lastPing < 2000)) return;
    lastPing = Date.now();
    pings += 1;
    waiting = setTimeout(() => { waiting = null; lost(); }, ANSWER_MS);
    try {
      model.send({ ping: pings });
    } catch {
      clearTimeout(waiting);
      waiting = null;
      lost();
    }
  }

  function lost() {
    root.classList.add("jqm-lost");
    gone.textContent = "The kernel does not answer: it restarted (run this cell again for " +
      "a live tree) or is busy. Below, the tree as it was last saved.";
    busy.textContent = "";
    hide.media = "not all"; // the saved snapshot shows again
  }

  function answered() {
    clearTimeout(waiting);
    waiting = null;
    if (!root.classList.contains("jqm-lost")) return;
    root.classList.remove("jqm-lost");
    gone.textContent = "";
    hide.media = "";
  }

  model.on("msg:custom", (message) => {
    if (!message) return;
    if ("pong" in message) answered();
    if (message.offered && message.offered.gen === gen) showOffers(message.offered);
    if (message.previewed && message.previewed.gen === gen &&
        message.previewed.program === jq.value &&
        message.previewed.node === model.get("selected")) showPreview(message.previewed);
  });
  model.on("comm_live_update", () => ping(true));
  root.addEventListener("keydown", () => ping(), true);
  root.addEventListener("pointerdown", () => ping(), true);

  // -- what is selected, and its paths ---------------------------------------------------
  function detail(label) {
    const pair = model.get("details").find((d) => d[0] === label);
    return pair ? pair[1] : "";
  }

  function chosenHit() {
    const hit = model.get("hit");
    return hit && hit.id === model.get("selected") ? hit : null;
  }

  // a match in a stream of inputs (JSON Lines, YAML documents) has no path of its own:
  // its node's, which reads it in each input
  function copy(which) {
    const hit = chosenHit();
    const path = (hit && hit.path) || detail("jq path") || model.get("selected");
    const quoted = `'${path.replaceAll("'", "'\\''")}'`; // as a shell (and the magic) reads it
    const text = which === "jq" ? path : which === "line"
      ? `%jq ${quoted} ${model.get("source_word")}`
      : (hit && hit.pointer !== undefined ? hit.pointer : detail("JSON Pointer"));
    copyText(text);
    root.dataset.copied = text;
    toast.textContent = `copied ${text}`;
    clearTimeout(toastTimer);
    toastTimer = setTimeout(() => { toast.textContent = ""; }, TOAST_MS);
  }

  // -- rows ------------------------------------------------------------------------------
  function want(first, count) {
    const total = model.get("row_count");
    const start = Math.max(0, Math.min(first, total - 1));
    const [have, many] = model.get("window");
    if (start >= have && start + count <= have + many) return;
    const next = [Math.max(0, start - OVERSCAN), count + 2 * OVERSCAN];
    if (asked && asked[0] === next[0] && asked[1] === next[1]) return;
    asked = next;
    model.set("window", next);
    model.save_changes();
  }

  function visible() {
    const first = Math.floor(tree.scrollTop / ROW);
    // before the tree is laid out its height is 0: draw as many rows as its CSS height holds
    const height = tree.clientHeight || parseFloat(getComputedStyle(tree).height) || 352;
    return [first, Math.ceil(height / ROW) + 1];
  }

  function rowId(index) {
    return `jqm-${uid}-row-${index}`;
  }

  function draw() {
    cache = new Map(model.get("rows").map((r) => [r.i, r]));
    spacer.style.height = `${model.get("row_count") * ROW}px`;
    const [first, count] = visible();
    want(first, count);
    const selected = model.get("selected");
    const rows = [];
    let active = null;
    for (let i = first; i < first + count; i++) {
      const row = cache.get(i);
      if (!row) continue;
      const mark = row.kids ? (row.open ? "▾" : "▸") : "";
      const isSelected = row.id === selected;
      const item = el("div", {
        class: "jqm-row" + (isSelected ? " jqm-selected" : ""), id: rowId(i),
        role: "treeitem", "data-id": row.id, "aria-level": String(row.depth + 1),
        "aria-selected": String(isSelected),
        "aria-label": [row.name, row.type, row.size, row.presence && `in ${row.presence}`,
          row.sample].filter(Boolean).join(", "),
        style: `top:${i * ROW}px;padding-left:${row.depth * 16 + 4}px`,
      },
        el("span", { class: "jqm-twisty", onclick: (e) => { e.stopPropagation(); toggle(row); } },
          mark),
        el("span", { class: "jqm-name" }, row.name),
        el("span", { class: "jqm-badge" }, row.type),
        el("span", { class: "jqm-size" }, row.size),
        el("span", { class: "jqm-presence", title: "objects that have this key" },
          row.presence ? `in ${row.presence}` : ""),
        el("span", { class: "jqm-sample" }, row.sample));
      if (row.kids) item.setAttribute("aria-expanded", String(row.open));
      if (isSelected) active = item.id;
      item.addEventListener("click", () => { cursor = row.i; select(row.id); tree.focus(); });
      rows.push(item);
    }
    spacer.replaceChildren(...rows);
    if (active) tree.setAttribute("aria-activedescendant", active);
    else tree.removeAttribute("aria-activedescendant");
  }

  // a path breaks after its steps, never inside a name: ".[199997]." <wbr> "owner"
  function breakable(text) {
    const parts = String(text).split(/(?<=[./\]])(?=[^./\]])/);
    return parts.flatMap((part, i) => (i ? [el("wbr"), part] : [part]));
  }

  function drawDetails() {
    details.replaceChildren(...model.get("details").map(([k, v]) =>
      el("tr", {}, el("th", {}, k), el("td", {}, el("code", {}, ...breakable(v))))));
  }

  function sameMatch(a, b) {
    return !!a && !!b && a.id === b.id && a.where === b.where;
  }

  function drawMatches() {
    note.textContent = model.get("search_note");
    const hit = chosenHit();
    const found = model.get("matches");
    if (!sameMatch(found[matchIndex], hit)) { // the kernel chose (a new search's first)
      matchIndex = found.findIndex((m) => sameMatch(m, hit));
    }
    // buttons: in the Tab order, Enter or Space chooses
    matches.replaceChildren(...found.slice(0, 50).map((m, index) =>
      el("button", { ...quiet, type: "button", role: "listitem",
        class: "jqm-match" + (hit && index === matchIndex ? " jqm-current" : ""),
        onclick: () => choose(index) },
        el("code", {}, ...breakable(m.where)), " ", el("span", {}, m.match))));
  }

  function select(id, hit = {}) {
    model.set("hit", hit);
    model.set("selected", id);
    model.save_changes();
  }

  function choose(index) {
    const found = model.get("matches");
    if (!found.length) return;
    matchIndex = (index + found.length) % found.length;
    select(found[matchIndex].id, found[matchIndex]);
    drawMatches();
  }

  function toggle(row) {
    const opened = new Set(model.get("opened"));
    if (opened.has(row.id)) opened.delete(row.id); else opened.add(row.id);
    model.set("opened", [...opened]);
    model.save_changes();
  }

  function scrollTo(index) {
    const top = index * ROW;
    if (top < tree.scrollTop) tree.scrollTop = top;
    else if (top + ROW > tree.scrollTop + tree.clientHeight) {
      tree.scrollTop = top + ROW - tree.clientHeight;
    }
  }

  function move(delta) {
    const index = Math.max(0, Math.min(cursor + delta, model.get("row_count") - 1));
    const row = cache.get(index);
    pending = null;
    if (row) {
      cursor = index;
      select(row.id);
      scrollTo(index);
    } else {
      pending = index; // selected when its row arrives
      scrollTo(index);
      want(index, 1);
    }
  }

  function arrived() {
    if (pending === null || !cache.has(pending)) return;
    const index = pending;
    pending = null;
    cursor = index;
    select(cache.get(index).id);
  }

  // -- keys ------------------------------------------------------------------------------
  // Shift+Enter runs the cell: Lumino stops looking for a shortcut at the first element
  // marked to suppress them, so the marks are lifted while this key goes up to it
  function passOn(event) {
    if (!(event.key === "Enter" && event.shiftKey)) return;
    const marked = [tree, root].filter((e) => e.hasAttribute("data-lm-suppress-shortcuts"));
    marked.forEach((e) => e.removeAttribute("data-lm-suppress-shortcuts"));
    setTimeout(() => marked.forEach((e) => e.setAttribute("data-lm-suppress-shortcuts",
      "true")));
  }

  tree.addEventListener("keydown", (event) => {
    if (notebookKey(event)) { passOn(event); return; }
    event.stopPropagation(); // every other key is the tree's, handled or not
    const row = cache.get(cursor);
    const page = Math.floor(tree.clientHeight / ROW);
    const keys = {
      ArrowDown: () => move(1),
      ArrowUp: () => move(-1),
      PageDown: () => move(page),
      PageUp: () => move(-page),
      Home: () => move(-model.get("row_count")),
      End: () => move(model.get("row_count")),
      ArrowRight: () => row && (row.kids && !row.open ? toggle(row) : move(1)),
      ArrowLeft: () => row && (row.open ? toggle(row) : row.parent && select(row.parent)),
      Enter: () => row && row.kids && toggle(row),
      "/": () => { search.focus(); search.select(); }, // typing replaces the old query
      c: () => copy("jq"),
      p: () => copy("pointer"),
      n: () => choose(matchIndex + 1),
      N: () => choose(matchIndex - 1),
      F3: () => choose(matchIndex + (event.shiftKey ? -1 : 1)),
    };
    const action = keys[event.key];
    if (action || event.key.length === 1) event.preventDefault(); // no page scroll on space
    if (action) action();
  });

  search.addEventListener("keydown", (event) => {
    if (notebookKey(event)) return;
    event.stopPropagation();
    if (event.key === "Enter") {
      matchIndex = -1;
      if (search.value === model.get("search")) { // again: go on where a search stopped
        model.set("search_more", model.get("search_more") + 1);
      } else {
        model.set("search", search.value);
        // the previous query's note and matches go at once: its answer takes a while
        if (search.value.trim()) note.textContent = "searching…";
      }
      model.save_changes();
    } else if (event.key === "Escape") {
      search.value = "";
      model.set("search", "");
      model.save_changes();
      tree.focus();
    } else if (event.key === "ArrowDown" || event.key === "F3") {
      event.preventDefault();
      choose(0);
      tree.focus();
    }
  });

  // -- the jq box: offers as the user types, a preview when the keys pause ----------------
  let gen = 0; // the newest key's generation: an answer to an older one is never drawn
  let offered = null; // the newest offers: the span they replace, and the items shown
  let active = -1; // the offer ArrowUp / ArrowDown chose (none at first: Enter runs)
  let deferred = null; // an offer taken while the newest key's answer was on its way
  let everything = -1; // the generation Ctrl+Space asked every offer at the cursor for
  let previewTimer = null;
  let previewing = false; // a preview asked for and not answered yet: the busy sign shows

  function ask(content) {
    try {
      model.send(content);
    } catch {
      lost();
    }
  }

  function typed() {
    gen += 1;
    deferred = null;
    outdated();
    ask({ complete: { gen, text: jq.value, cursor: jq.selectionStart ?? jq.value.length } });
    previewSoon();
  }

  function previewSoon() {
    clearTimeout(previewTimer);
    const asked = gen;
    previewTimer = setTimeout(() => {
      previewing = true;
      drawBusy();
      ask({ preview: { gen: asked, text: jq.value } });
    }, PREVIEW_MS);
  }

  // what shows is an older program's (or node's) answer: dimmed at once, and its caret,
  // which points into another text, gone
  function outdated() {
    root.classList.add("jqm-stale");
    drawCaret(null);
  }

  function offerId(index) {
    return `${offersId}-${index}`;
  }

  function showOffers(answer) {
    const word = jq.value.slice(answer.start, answer.end);
    const items = answer.items.filter((o) => o.text !== word); // typed already
    offered = { ...answer, items };
    active = -1;
    jq.removeAttribute("aria-activedescendant");
    if (deferred) { // taken before this answer came: the same offer if it is still there
      const wanted = items.findIndex((o) => o.text === deferred.text);
      deferred = null;
      if (items.length) accept(Math.max(wanted, 0));
      return;
    }
    // a word begun (".", ".na", "ma", "$") opens the list; after "| " it would hold every
    // builtin: Ctrl+Space asks for that
    const begun = word || answer.gen === everything;
    if (!items.length || document.activeElement !== jq || !begun) {
      closeOffers();
      return;
    }
    const options = items.map((o, index) => el("li", { id: offerId(index), role: "option",
      class: "jqm-offer", "aria-selected": "false",
      // pressed, not clicked: the box keeps the focus
      onmousedown: (event) => { event.preventDefault(); accept(index); } },
      el("span", { class: "jqm-offer-text" }, o.text), " ",
      el("span", { class: "jqm-offer-type" }, o.type)));
    if (answer.more) {
      options.push(el("li", { class: "jqm-offer-more", role: "presentation" },
        `… ${answer.more} more: type on to narrow them`));
    }
    offerList.replaceChildren(...options);
    offerList.hidden = false;
    root.classList.add("jqm-offering"); // the unfinished program's error waits meanwhile
    jq.setAttribute("aria-expanded", "true");
  }

  function closeOffers() {
    offerList.hidden = true;
    offerList.replaceChildren();
    root.classList.remove("jqm-offering");
    jq.setAttribute("aria-expanded", "false");
    jq.removeAttribute("aria-activedescendant");
    active = -1;
  }

  function chooseOffer(step) {
    const count = offered.items.length;
    active = active < 0 && step < 0 ? count - 1 : (active + step + count) % count;
    offerList.querySelectorAll("[role=option]").forEach((option, index) =>
      option.setAttribute("aria-selected", String(index === active)));
    const option = document.getElementById(offerId(active));
    jq.setAttribute("aria-activedescendant", option.id);
    option.scrollIntoView({ block: "nearest" });
  }

  // Tab or Enter on a shown offer: the list shown may be the answer to an older key (its
  // span no longer fits the box's text): then the newest answer's same offer is taken
  function take(index) {
    if (offered.gen === gen) accept(index);
    else deferred = { text: offered.items[index].text };
  }

  function accept(index) {
    const offer = offered.items[index];
    const text = jq.value;
    jq.value = text.slice(0, offered.start) + offer.text + text.slice(offered.end);
    const at = offered.start + offer.text.length;
    jq.setSelectionRange(at, at);
    closeOffers();
    typed(); // what may follow it, and its preview
  }

  function showPreview(answer) {
    previewing = false;
    drawBusy();
    root.classList.remove("jqm-stale");
    output.dataset.program = answer.program; // what the answer shown is of (tests read it)
    output.dataset.node = answer.node;
    if (answer.error) { // replaces the last answer at once: no older results under it
      problem.textContent = answer.error;
      status.textContent = "";
      output.replaceChildren();
      drawCaret(answer.column);
      return;
    }
    problem.textContent = "";
    drawCaret(null);
    // what it ran on said (a chosen match's own path), when it is not the whole document
    status.textContent = answer.on === "." ? answer.status : `${answer.status} on ${answer.on}`;
    output.innerHTML = answer.html;
  }

  // the caret under the character of the box the error points at
  function drawCaret(column) {
    if (column === null || column === undefined) { caret.replaceChildren(); return; }
    const style = getComputedStyle(jq);
    const measure = document.createElement("canvas").getContext("2d");
    measure.font = style.font;
    const width = measure.measureText(jq.value.slice(0, column)).width;
    const left = jq.getBoundingClientRect().left - caret.getBoundingClientRect().left +
      parseFloat(style.paddingLeft) + parseFloat(style.borderLeftWidth) + width -
      jq.scrollLeft;
    caret.replaceChildren(el("span", { style: `left:${Math.max(0, left)}px` }, "^"));
  }

  jq.addEventListener("input", typed);
  jq.addEventListener("blur", closeOffers);
  jq.addEventListener("keydown", (event) => {
    const open = !offerList.hidden && offered && offered.items.length;
    const plain = !(event.ctrlKey || event.metaKey || event.altKey || event.shiftKey);
    if (open && plain && event.key === "Tab") { // takes the chosen offer, else the first
      event.preventDefault();
      event.stopPropagation();
      take(Math.max(active, 0));
      return;
    }
    if (event.ctrlKey && event.key === " ") { // every offer at the cursor
      event.preventDefault();
      event.stopPropagation();
      typed();
      everything = gen;
      return;
    }
    if (notebookKey(event)) return;
    event.stopPropagation();
    if (open && (event.key === "ArrowDown" || event.key === "ArrowUp")) {
      event.preventDefault();
      chooseOffer(event.key === "ArrowDown" ? 1 : -1);
      return;
    }
    if (open && event.key === "Enter" && active >= 0) {
      event.preventDefault();
      take(active);
      return;
    }
    if (event.key === "Escape") {
      event.preventDefault();
      if (open) closeOffers(); // a second Escape gives the keys back to the tree
      else tree.focus();
      return;
    }
    if (["ArrowLeft", "ArrowRight", "Home", "End"].includes(event.key)) closeOffers();
    if (event.key !== "Enter") return;
    event.preventDefault();
    gen += 1; // no preview asked before this run is drawn after it
    clearTimeout(previewTimer);
    previewing = false;
    closeOffers();
    problem.textContent = "";
    drawCaret(null);
    root.classList.remove("jqm-stale");
    root.classList.add("jqm-is-busy");
    busy.textContent = "running…";
    model.set("query", jq.value);
    model.set("run_requests", model.get("run_requests") + 1);
    model.save_changes();
    ping(true);
  });

  function drawBusy() {
    const running = model.get("busy") || previewing;
    root.classList.toggle("jqm-is-busy", running);
    busy.textContent = running ? "running…" : "";
  }

  // -- drawing whenever something changed, and as soon as the tree has a size ------------
  tree.addEventListener("scroll", () => requestAnimationFrame(draw));
  const resized = new ResizeObserver(() => draw());
  resized.observe(tree);
  // the kernel's cursor may be the echo of an older selection (keys come faster than it
  // answers): taken only when it is the selected row's; the rows, when they come, say where
  // the selected row is now
  function selectedIndex() {
    for (const [index, row] of cache) if (row.id === model.get("selected")) return index;
    return null;
  }
  model.on("change:rows", () => {
    draw();
    const index = selectedIndex();
    if (index !== null && pending === null) cursor = index;
    arrived();
  });
  model.on("change:row_count", draw);
  function previewAgain() { // the program, on a new node or another match of it
    if (jq.value.trim()) { gen += 1; outdated(); previewSoon(); }
  }
  model.on("change:selected", () => {
    draw();
    drawMatches();
    previewAgain();
  });
  model.on("change:hit", () => {
    drawMatches();
    previewAgain();
  });
  model.on("change:cursor", () => {
    const row = cache.get(model.get("cursor"));
    if (row && row.id !== model.get("selected")) return; // an older selection's echo
    cursor = model.get("cursor");
    scrollTo(cursor);
    draw();
  });
  model.on("change:details", drawDetails);
  model.on("change:matches", drawMatches);
  model.on("change:search_note", drawMatches);
  model.on("change:busy", drawBusy);
  model.on("change:output", () => {
    output.innerHTML = model.get("output");
    status.textContent = "";
    drawBusy();
  });
  search.value = model.get("search");
  jq.value = model.get("query");
  output.innerHTML = model.get("output");
  draw();
  requestAnimationFrame(draw); // attached by then: the real height
  drawDetails();
  drawMatches();
  return () => {
    resized.disconnect();
    clearTimeout(waiting);
    clearTimeout(toastTimer);
    clearTimeout(previewTimer);
    hide.remove();
  };
}

export default { render };
