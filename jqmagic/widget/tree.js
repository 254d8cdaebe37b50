// The SchemaBrowser's view (anywidget ES module, no build step). The kernel holds the tree;
// this draws the rows of its window, asks for others by setting `window`, and turns clicks
// and keys into trait changes: selected, opened, search, query and run_requests.

const ROW = 22; // px per row
const OVERSCAN = 30; // rows asked for beyond the visible ones

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

function render({ model, el: host }) {
  const uid = model.get("uid");
  // the static snapshot beside the live view is for saved notebooks: hide it while live
  const hide = el("style");
  hide.textContent =
    `.jp-OutputArea-child:has(.jqmagic-snapshot[data-uid="${uid}"]),` +
    `.output_area:has(.jqmagic-snapshot[data-uid="${uid}"]),` +
    `.jqmagic-snapshot[data-uid="${uid}"] { display: none !important; }`;
  document.head.append(hide);

  const search = el("input", { class: "jqm-search", type: "search",
    placeholder: "search keys and values  ( / )", "aria-label": "search keys and values" });
  const note = el("span", { class: "jqm-note" });
  const spacer = el("div", { class: "jqm-spacer" });
  const tree = el("div", { class: "jqm-tree", tabindex: "0", role: "tree",
    "aria-label": "schema tree" }, spacer);
  const details = el("table", { class: "jqm-details" });
  const toast = el("span", { class: "jqm-toast", role: "status" });
  const copyJq = el("button", { class: "jqm-copy-jq", title: "copy the jq path (c)",
    onclick: () => copy("jq") }, "copy jq path");
  const copyPointer = el("button", { class: "jqm-copy-pointer",
    title: "copy the JSON Pointer (p)", onclick: () => copy("pointer") }, "copy pointer");
  const jq = el("input", { class: "jqm-jq", type: "text", "aria-label": "jq filter",
    placeholder: "jq filter on the selected node, Enter runs it (e.g. .name)" });
  const busy = el("span", { class: "jqm-busy", "aria-live": "polite" });
  const output = el("div", { class: "jqm-output" });
  const matches = el("div", { class: "jqm-matches" });
  const root = el("div", { class: "jqm-root tex2jax_ignore mathjax_ignore",
    "data-lm-suppress-shortcuts": "true" },
    el("div", { class: "jqm-bar" }, el("b", {}, model.get("title")), search, note),
    el("div", { class: "jqm-main" }, tree,
      el("div", { class: "jqm-side" }, details,
        el("div", { class: "jqm-buttons" }, copyJq, copyPointer, toast), matches)),
    el("div", { class: "jqm-query" }, jq, busy), output);
  host.append(root);

  let cache = new Map(); // row index -> row
  let asked = null;
  let cursor = model.get("cursor"); // ahead of the kernel while keys come fast
  let pending = null; // a row index to select once the kernel has sent it

  function detail(label) {
    const pair = model.get("details").find((d) => d[0] === label);
    return pair ? pair[1] : "";
  }

  function copy(which) {
    const text = which === "jq" ? detail("jq path") : detail("JSON Pointer");
    copyText(text);
    root.dataset.copied = text;
    toast.textContent = `copied ${text}`;
  }

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
    return [first, Math.ceil(tree.clientHeight / ROW) + 1];
  }

  function draw() {
    cache = new Map(model.get("rows").map((r) => [r.i, r]));
    spacer.style.height = `${model.get("row_count") * ROW}px`;
    const [first, count] = visible();
    want(first, count);
    const selected = model.get("selected");
    for (const node of [...spacer.children]) node.remove();
    for (let i = first; i < first + count; i++) {
      const row = cache.get(i);
      if (!row) continue;
      const mark = row.kids ? (row.open ? "▾" : "▸") : "";
      const item = el("div", {
        class: "jqm-row" + (row.id === selected ? " jqm-selected" : ""),
        role: "treeitem", "data-id": row.id, "aria-level": String(row.depth + 1),
        "aria-selected": String(row.id === selected),
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
      item.addEventListener("click", () => { cursor = row.i; select(row.id); tree.focus(); });
      spacer.append(item);
    }
  }

  function drawDetails() {
    details.replaceChildren(...model.get("details").map(([k, v]) =>
      el("tr", {}, el("th", {}, k), el("td", {}, el("code", {}, v)))));
  }

  function drawMatches() {
    note.textContent = model.get("search_note");
    matches.replaceChildren(...model.get("matches").slice(0, 50).map((m) =>
      el("div", { class: "jqm-match", onclick: () => select(m.id, m) },
        el("code", {}, m.where), " ", el("span", {}, m.match))));
  }

  function select(id, hit = {}) {
    model.set("hit", hit);
    model.set("selected", id);
    model.save_changes();
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

  tree.addEventListener("keydown", (event) => {
    const row = cache.get(cursor);
    const keys = {
      ArrowDown: () => move(1),
      ArrowUp: () => move(-1),
      PageDown: () => move(Math.floor(tree.clientHeight / ROW)),
      PageUp: () => move(-Math.floor(tree.clientHeight / ROW)),
      Home: () => move(-model.get("row_count")),
      End: () => move(model.get("row_count")),
      ArrowRight: () => row && (row.kids && !row.open ? toggle(row) : move(1)),
      ArrowLeft: () => row && (row.open ? toggle(row) : row.parent && select(row.parent)),
      Enter: () => row && row.kids && toggle(row),
      "/": () => search.focus(),
      c: () => copy("jq"),
      p: () => copy("pointer"),
    };
    const action = keys[event.key];
    if (!action || event.ctrlKey || event.metaKey || event.altKey) return;
    event.preventDefault();
    event.stopPropagation();
    action();
  });

  search.addEventListener("keydown", (event) => {
    event.stopPropagation();
    if (event.key === "Enter") {
      model.set("search", search.value);
      model.save_changes();
    } else if (event.key === "Escape") {
      search.value = "";
      model.set("search", "");
      model.save_changes();
      tree.focus();
    } else if (event.key === "ArrowDown") {
      event.preventDefault();
      const first = model.get("matches")[0];
      if (first) select(first.id, first);
      tree.focus();
    }
  });

  jq.addEventListener("keydown", (event) => {
    event.stopPropagation();
    if (event.key !== "Enter") return;
    event.preventDefault();
    root.classList.add("jqm-is-busy");
    busy.textContent = "running…";
    model.set("query", jq.value);
    model.set("run_requests", model.get("run_requests") + 1);
    model.save_changes();
  });

  function drawBusy() {
    const running = model.get("busy");
    root.classList.toggle("jqm-is-busy", running);
    busy.textContent = running ? "running…" : "";
  }

  tree.addEventListener("scroll", () => requestAnimationFrame(draw));
  model.on("change:rows", () => { draw(); arrived(); });
  model.on("change:row_count", draw);
  model.on("change:selected", draw);
  model.on("change:cursor", () => {
    cursor = model.get("cursor");
    scrollTo(cursor);
    draw();
  });
  model.on("change:details", drawDetails);
  model.on("change:matches", drawMatches);
  model.on("change:search_note", drawMatches);
  model.on("change:busy", drawBusy);
  model.on("change:output", () => { output.innerHTML = model.get("output"); drawBusy(); });
  search.value = model.get("search");
  jq.value = model.get("query");
  output.innerHTML = model.get("output");
  draw();
  drawDetails();
  drawMatches();
  return () => hide.remove();
}

export default { render };
