// The explorer page: draws the board of /api/position in SVG, every legal move coloured by
// its value for the mover, and keeps the line of play (undo, redo, start, jump), its values
// as a chart, and games against the computer (/api/computer).
// Plain JavaScript module, no build step. Every value shown comes from the JSON API.

const SVG = "http://www.w3.org/2000/svg";
const LETTER = { win: "W", draw: "D", loss: "L" };

const state = {
  game: null,   // /api/game
  line: [],     // [{position, played, data}] from the start of the line
  index: 0,     // the entry shown
  requests: 0,  // the latest request wins when clicks outrun the server
  focus: null,  // movement games: the cell whose piece's arrows alone are shown
  computer: null,  // the player index the computer plays, or null (explore)
  blind: false,    // values hidden
};

const $ = (id) => document.getElementById(id);

async function api(path, options) {
  const response = await fetch(path, options);
  const data = await response.json();
  if (!response.ok) throw new Error(data.error || `HTTP ${response.status}`);
  return data;
}

function svg(tag, attributes = {}, parent = null) {
  const element = document.createElementNS(SVG, tag);
  for (const [key, value] of Object.entries(attributes)) element.setAttribute(key, value);
  if (parent) parent.appendChild(element);
  return element;
}

function valueText(outcome, remoteness) {
  if (!outcome) return "?";
  return remoteness === null || remoteness === undefined ? LETTER[outcome] : `${LETTER[outcome]}${remoteness}`;
}

function describeValue(data) {
  const v = data.value;
  if (!v) return "";
  if (data.game_over) {
    return v.winner === "draw" ? "game over: a draw" : `game over: ${v.winner} wins`;
  }
  if (v.winner === "draw") return `${data.to_move} to move: a draw with perfect play`;
  const plies = v.remoteness === null ? "" : ` in ${v.remoteness} ${v.remoteness === 1 ? "ply" : "plies"}`;
  return `${data.to_move} to move: ${v.winner} wins${plies}`;
}

// ------------------------------------------------------------------------------ the board
function hexPoints(x, y, r) {
  const points = [];
  for (let k = 0; k < 6; k++) {
    const angle = Math.PI / 180 * (60 * k - 90); // pointy top
    points.push(`${(x + r * Math.cos(angle)).toFixed(4)},${(y + r * Math.sin(angle)).toFixed(4)}`);
  }
  return points.join(" ");
}

function drawBoard(data) {
  const board = $("board");
  board.replaceChildren();
  const layout = data.board;
  board.style.display = layout ? "" : "none";  // games without a board: the table only
  if (!layout) {
    drawOtherMoves(data.moves);
    return;
  }
  const hex = layout.shape === "hex";
  const half = hex ? 1.0 : 0.5;   // hexagon radius, or half a square's side
  const xs = layout.cells.map((c) => c.x), ys = layout.cells.map((c) => c.y);
  const pad = hex ? 1.15 : 0.65;
  const minX = Math.min(...xs) - pad, minY = Math.min(...ys) - pad;
  const width = Math.max(...xs) - Math.min(...xs) + 2 * pad;
  const height = Math.max(...ys) - Math.min(...ys) + 2 * pad;
  board.setAttribute("viewBox", `${minX} ${minY} ${width} ${height}`);
  board.dataset.shape = layout.shape;
  const defs = svg("defs", {}, board);
  for (const outcome of ["win", "draw", "loss", "unknown"]) {
    const marker = svg("marker", {
      id: `head-${outcome}`, viewBox: "0 0 10 10", refX: "7", refY: "5",
      markerWidth: "4", markerHeight: "4", orient: "auto-start-reverse",
    }, defs);
    svg("path", { d: "M 0 0 L 10 5 L 0 10 z", class: `arrowhead ${outcome}` }, marker);
  }

  const byCell = new Map(layout.cells.map((c) => [c.cell, c]));
  const targets = new Map();  // cell -> the placement-like move acting on it
  const arrows = [];
  const others = [];
  const sources = new Set();
  for (const move of data.moves) {
    if (move.to === null) others.push(move);
    else if (move.from !== null) {
      sources.add(move.from);
      if (state.focus === null || state.focus === move.from) arrows.push(move);
    } else targets.set(move.to, move);
  }

  const cellLayer = svg("g", { class: "cells" }, board);
  for (const cell of layout.cells) {
    const style = layout.styles[cell.symbol] || null;
    const group = svg("g", { class: "cell", "data-cell": cell.name }, cellLayer);
    const shapeAttributes = { class: "cell-shape" };
    let shape;
    if (hex) shape = svg("polygon", { ...shapeAttributes, points: hexPoints(cell.x, cell.y, half * 0.985) }, group);
    else shape = svg("rect", { ...shapeAttributes, x: cell.x - half, y: cell.y - half, width: 2 * half, height: 2 * half }, group);
    if (cell.designated) shape.classList.add("designated");
    if (cell.controlled_by !== undefined && cell.controlled_by !== null) {
      shape.classList.add(`controlled-${cell.controlled_by}`);
      svg("title", {}, group).textContent = `${cell.name}: controlled by ${state.game.players[cell.controlled_by]}`;
    }
    if (style && (style.kind === "cut" || style.kind === "void")) shape.classList.add(style.kind);
    const move = targets.get(cell.cell);
    if (move) {
      group.classList.add("move", move.outcome || "unknown");
      shape.classList.add("move-cell", move.outcome || "unknown");
      group.dataset.move = move.move;
      group.dataset.outcome = move.outcome || "unknown";
      group.dataset.remoteness = move.remoteness ?? "";
      group.addEventListener("click", () => play(move.move));
      svg("title", {}, group).textContent = tooltip(move);
    }
    if (sources.has(cell.cell)) {
      // a piece that can move: clicking it shows its arrows alone (again: all arrows)
      group.classList.add("source");
      if (state.focus === cell.cell) group.classList.add("focused");
      group.addEventListener("click", () => {
        state.focus = state.focus === cell.cell ? null : cell.cell;
        drawBoard(data);
      });
    }
    drawPiece(group, cell, style, hex, Boolean(move));
    svg("text", {
      class: "cell-name",
      x: cell.x + (hex ? 0 : -0.46), y: cell.y + (hex ? 0.74 : 0.4),
      "text-anchor": hex ? "middle" : "start",
    }, group).textContent = cell.name;
    if (move) {
      const onPiece = style && style.kind === "stone" ? " on-piece" : "";  // a removal
      svg("text", { class: `move-label ${move.outcome || "unknown"}${onPiece}`, x: cell.x, y: cell.y + 0.02 }, group)
        .textContent = valueText(move.outcome, move.remoteness);
    }
  }
  if (layout.cells.some((c) => c.region !== undefined)) drawRegionBorders(board, layout, hex);

  // Lines below, value badges above: no line crosses a badge. A move is its badge group
  // (class "move", its data attributes) and its line (same data-move), both clickable.
  const lineLayer = svg("g", { class: "arrow-lines" }, board);
  const badgeLayer = svg("g", { class: "arrows" }, board);
  const ordered = [...arrows].sort((a, b) => rank(a) - rank(b)); // best moves drawn on top
  for (const move of ordered) {
    const a = byCell.get(move.from), b = byCell.get(move.to);
    if (!a || !b) continue;
    const outcome = move.outcome || "unknown";
    const dx = b.x - a.x, dy = b.y - a.y, length = Math.hypot(dx, dy);
    const ux = dx / length, uy = dy / length;
    // The value badge sits inside the target cell on the side the piece comes from: arrows
    // into one cell come from different directions (pieces do not pass each other on a line
    // in these games), so their badges stay apart.
    const ring = hex ? 0.5 : 0.36, r = hex ? 0.27 : 0.12, start = hex ? 0.45 : 0.2;
    const bx = b.x - ux * ring, by = b.y - uy * ring;
    const ends = {
      x1: a.x + ux * start, y1: a.y + uy * start, x2: bx - ux * (r + 0.02), y2: by - uy * (r + 0.02),
    };
    const line = svg("g", { class: `arrow-line-group ${outcome}`, "data-move": move.move }, lineLayer);
    svg("line", { ...ends, class: "arrow-hit" }, line);
    svg("line", { ...ends, class: `arrow-line ${outcome}`, "marker-end": `url(#head-${outcome})` }, line);
    const group = svg("g", {
      class: `move arrow ${outcome}`, "data-move": move.move, "data-outcome": outcome,
      "data-remoteness": move.remoteness ?? "",
    }, badgeLayer);
    // a disc for one or two characters, a pill as long as a longer label ("L34")
    const text = valueText(move.outcome, move.remoteness);
    const size = hex ? 0.27 : 0.12;
    const halfWidth = r + Math.max(0, text.length - 2) * size * 0.33;
    svg("rect", {
      x: bx - halfWidth, y: by - r, width: 2 * halfWidth, height: 2 * r, rx: r, ry: r,
      class: `arrow-badge ${outcome}`,
    }, group);
    svg("text", { x: bx, y: by + 0.01, class: `arrow-label ${outcome}`, "font-size": size }, group)
      .textContent = text;
    for (const element of [line, group]) {
      svg("title", {}, element).textContent = tooltip(move);
      element.addEventListener("click", () => play(move.move));
      element.addEventListener("mouseenter", () => line.classList.add("hover"));
      element.addEventListener("mouseleave", () => line.classList.remove("hover"));
    }
  }
  drawOtherMoves(others);
  $("focus-hint").hidden = sources.size === 0;
}

function tooltip(move) {
  return state.blind ? move.move : `${move.move}: ${move.outcome || "value unknown"}`;
}

function rank(move) {
  return { loss: 0, unknown: 1, draw: 2, win: 3 }[move.outcome || "unknown"];
}

function drawPiece(group, cell, style, hex, isMove) {
  if (!style || cell.symbol === ".") return;
  if (style.kind === "stone") {
    const stone = svg("circle", {
      cx: cell.x, cy: cell.y, r: hex ? 0.58 : 0.33, class: "stone", fill: style.fill,
    }, group);
    if (style.ring) stone.classList.add("fixed");
    stone.dataset.symbol = cell.symbol;
  } else if (style.kind === "mark") {
    svg("text", { x: cell.x, y: cell.y + 0.02, class: "mark", "data-symbol": cell.symbol }, group)
      .textContent = cell.symbol;
  }
  if (!style.kind && !isMove) {
    svg("text", { x: cell.x, y: cell.y, class: "mark" }, group).textContent = cell.symbol;
  }
}

function drawRegionBorders(board, layout, hex) {
  const step = hex ? Math.sqrt(3) : 1;
  const layer = svg("g", { class: "regions" }, board);
  const cells = layout.cells;
  for (let i = 0; i < cells.length; i++) {
    for (let j = i + 1; j < cells.length; j++) {
      const a = cells[i], b = cells[j];
      if (a.region === b.region) continue;
      const dx = b.x - a.x, dy = b.y - a.y;
      if (Math.abs(Math.hypot(dx, dy) - step) > 1e-3) continue;
      const mx = (a.x + b.x) / 2, my = (a.y + b.y) / 2;
      const px = -dy / step * 0.5, py = dx / step * 0.5; // half an edge, across the gap
      svg("line", { x1: mx - px, y1: my - py, x2: mx + px, y2: my + py, class: "region-border" }, layer);
    }
  }
}

function drawOtherMoves(moves) {
  const box = $("other-moves");
  box.replaceChildren();
  for (const move of moves) {
    const button = document.createElement("button");
    button.type = "button";
    button.className = `move other ${move.outcome || "unknown"}`;
    button.dataset.move = move.move;
    button.dataset.outcome = move.outcome || "unknown";
    button.dataset.remoteness = move.remoteness ?? "";
    const value = document.createElement("span");
    value.className = "value";
    value.textContent = valueText(move.outcome, move.remoteness);
    button.append(`${move.move}  `, value);
    button.addEventListener("click", () => play(move.move));
    box.appendChild(button);
  }
}

// ------------------------------------------------------------------------- the side panel
function drawMoveTable(data) {
  const body = $("moves").querySelector("tbody");
  body.replaceChildren();
  body.scrollTop = 0;
  // blind: in the order the game lists them, no star (the order and the star tell values)
  const moves = state.blind ? data.moves : [...data.moves].sort((a, b) => rank(b) - rank(a) || order(a, b));
  for (const move of moves) {
    const row = document.createElement("tr");
    row.className = `move-row ${move.outcome || "unknown"}`;
    row.dataset.move = move.move;
    row.dataset.outcome = move.outcome || "unknown";
    row.dataset.remoteness = move.remoteness ?? "";
    const best = !state.blind && (data.best_moves || []).includes(move.move) ? " \u2605" : "";
    const value = state.blind ? ["", ""] : [move.outcome || "?", move.remoteness ?? "-"];
    for (const text of [move.move + best, ...value]) {
      const cell = document.createElement("td");
      cell.textContent = text;
      row.appendChild(cell);
    }
    row.addEventListener("click", () => play(move.move));
    body.appendChild(row);
  }
}

function order(a, b) {
  // wins: fastest first; losses and draws: slowest first
  const ra = a.remoteness ?? 0, rb = b.remoteness ?? 0;
  return a.outcome === "win" ? ra - rb : rb - ra;
}

function drawHistory() {
  const list = $("history");
  list.replaceChildren();
  state.line.forEach((entry, k) => {
    const item = document.createElement("li");
    const value = entry.data && entry.data.value;
    const winner = value ? value.winner : null;
    const players = state.game.players;
    const who = winner === null ? "unknown" : winner === "draw" ? "draw" : `player${players.indexOf(winner)}`;
    item.className = `history-entry ${who}${k === state.index ? " current" : ""}${k > state.index ? " future" : ""}`;
    item.dataset.index = k;
    item.dataset.winner = winner ?? "";
    const label = k === 0 ? "start" : entry.played;
    item.title = state.blind ? label
      : `${label}: ${winner === null ? "value unknown" : winner === "draw" ? "draw" : winner + " wins"}`;
    const move = document.createElement("span");
    move.className = "history-move";
    move.textContent = k === 0 ? "start" : entry.played;
    const mark = document.createElement("span");
    mark.className = "history-value";
    mark.textContent = winner === null ? "?" : winner === "draw" ? "draw" : winner;
    item.append(move, mark);
    item.addEventListener("click", () => show(k));
    list.appendChild(item);
  });
  const current = list.querySelector(".current");
  if (current) current.scrollIntoView({ block: "nearest", inline: "nearest" });
}

// The value after each ply, seen by the first player: a win in r plies is drawn r steps
// below the top (the first player's wins) or above the bottom (the second's), so a game
// nearing its end moves away from the draw line in the middle.
function drawChart() {
  const chart = $("value-chart");
  chart.replaceChildren();
  const width = 320, height = 150, left = 30, right = 22, top = 14, bottom = 14;
  chart.setAttribute("viewBox", `0 0 ${width} ${height}`);
  const points = state.line.map((entry, ply) => {
    const value = entry.data && entry.data.value;
    if (!value) return null;
    const remoteness = value.remoteness ?? 0;
    const who = value.winner === "draw" ? "draw" : `player${state.game.players.indexOf(value.winner)}`;
    return { ply, remoteness, who, winner: value.winner };
  });
  const deepest = Math.max(1, ...points.filter(Boolean).map((p) => p.remoteness));
  const plies = Math.max(1, state.line.length - 1);
  const middle = (top + height - bottom) / 2, reach = middle - top;
  const x = (ply) => left + (width - left - right) * ply / plies;
  const y = (p) => {
    if (p.who === "draw") return middle;
    const height = reach * (deepest + 1 - p.remoteness) / (deepest + 1);
    return p.who === "player0" ? middle - height : middle + height;
  };
  svg("line", { x1: left, y1: middle, x2: width - right, y2: middle, class: "axis" }, chart);
  const [first, second] = state.game.players;
  svg("text", { x: 2, y: top - 3, class: "axis-label" }, chart).textContent = `${first} wins`;
  svg("text", { x: 2, y: middle + 3, class: "axis-label" }, chart).textContent = "draw";
  svg("text", { x: 2, y: height - 3, class: "axis-label" }, chart).textContent = `${second} wins`;
  // the remoteness scale on the right: 0 (the end) at the edges, the deepest near the line
  for (const [at, text] of [[top, "0"], [middle, String(deepest)], [height - bottom, "0"]]) {
    svg("text", { x: width - 2, y: at + 3, class: "axis-label", "text-anchor": "end" }, chart)
      .textContent = text;
  }
  let trace = [];
  const traces = [trace];
  for (const p of points) {
    if (p === null) traces.push(trace = []);
    else trace.push(`${x(p.ply).toFixed(1)},${y(p).toFixed(1)}`);
  }
  for (const line of traces) {
    if (line.length > 1) svg("polyline", { points: line.join(" "), class: "trace" }, chart);
  }
  for (const p of points) {
    if (p === null) continue;
    const dot = svg("circle", {
      cx: x(p.ply), cy: y(p), r: 4,
      class: `point ${p.who}${p.ply === state.index ? " current" : ""}`,
      "data-ply": p.ply, "data-winner": p.winner, "data-remoteness": p.remoteness,
    }, chart);
    svg("title", {}, dot).textContent = p.winner === "draw"
      ? `ply ${p.ply}: draw` : `ply ${p.ply}: ${p.winner} wins in ${p.remoteness}`;
    dot.addEventListener("click", () => show(p.ply));
  }
}

function describeComputer(entry) {
  const box = $("computer");
  const computer = entry && entry.computer;
  if (!computer) {
    box.setAttribute("hidden", "");
    return;
  }
  const e = computer.estimate;
  let estimate;
  if (e.kind === "proven") {
    const plies = e.remoteness === null ? "" : ` in ${e.remoteness} ${e.remoteness === 1 ? "ply" : "plies"}`;
    estimate = e.outcome === "draw" ? "a draw with perfect play"
      : `${e.outcome === "win" ? "wins" : "loses"}${plies} with perfect play (${computer.choice})`;
  } else {
    const rate = e.win_rate === null ? "?" : `${Math.round(100 * e.win_rate)}%`;
    estimate = `estimated win rate ${rate} after ${e.playouts.toLocaleString("en")} playouts`;
  }
  box.replaceChildren(`computer (${e.player}) played ${entry.played}`);
  const detail = document.createElement("span");
  detail.className = "estimate";
  detail.textContent = `: ${estimate}`;
  box.appendChild(detail);
  box.dataset.kind = e.kind;
  box.dataset.choice = computer.choice;
  box.removeAttribute("hidden");
}

function render() {
  const entry = state.line[state.index];
  const data = entry.data;
  $("position-text").value = data.position;
  const valued = data.value && !(state.blind && !data.game_over);
  $("status").textContent = valued ? describeValue(data) : `${data.to_move} to move`;
  $("status").className = data.value ? `value-${data.value.winner === "draw" ? "draw" : "decided"}` : "";
  const message = $("message");
  if (data.message) {
    message.textContent = data.message;
    message.removeAttribute("hidden");
  } else message.setAttribute("hidden", "");
  drawBoard(data);
  drawMoveTable(data);
  drawHistory();
  drawChart();
  describeComputer(entry);
  $("undo").disabled = state.index === 0;
  $("redo").disabled = state.index >= state.line.length - 1;
  $("start").disabled = state.index === 0;
  history.replaceState(null, "", `#${encodeURIComponent(data.position)}`);
  document.body.dataset.position = data.position;
  document.body.dataset.source = data.source || "";
  document.body.dataset.ready = "true";
}

function fail(error) {
  const message = $("message");
  message.textContent = error.message;
  message.removeAttribute("hidden");
  document.body.dataset.ready = "true";
}

// ------------------------------------------------------------------------------ actions
async function load(fetcher) {
  const ticket = ++state.requests;
  document.body.dataset.ready = "false";
  $("status").textContent = "solving\u2026";
  try {
    const data = await fetcher();
    if (ticket !== state.requests) return null;
    return data;
  } catch (error) {
    if (ticket === state.requests) fail(error);
    return null;
  }
}

function post(path, body) {
  return api(path, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(body),
  });
}

function extend(data, computer = null) {
  state.line = state.line.slice(0, state.index + 1);
  state.line.push({ position: data.position, played: data.played, data, computer });
  state.index = state.line.length - 1;
  state.focus = null;
  render();
}

async function play(name) {
  const entry = state.line[state.index];
  if (computerToMove(entry.data)) return;  // the computer's turn: wait for it
  const data = await load(() => post("/api/play", { position: entry.data.position, move: name }));
  if (!data) return;
  extend(data);
  await computerTurn();
}

function computerToMove(data) {
  return state.computer !== null && !data.game_over && data.to_move_index === state.computer;
}

// The computer moves while it is its turn at the end of the line.
async function computerTurn() {
  while (state.index === state.line.length - 1 && computerToMove(state.line[state.index].data)) {
    const [kind, playouts] = $("strength").value.split(":");
    const position = state.line[state.index].data.position;
    const data = await load(() => post("/api/computer", {
      position, playouts: Number(playouts), perfect: kind === "perfect",
    }));
    if (!data || state.line[state.index].data.position !== position) return;
    extend(data, { choice: data.choice, estimate: data.estimate, candidates: data.candidates });
  }
}

// Undo against the computer goes back to the last position where it is the person's turn.
function undo() {
  let index = state.index - 1;
  while (index > 0 && computerToMove(state.line[index].data)) index -= 1;
  show(index);
}

async function newGame() {
  const data = await load(() => api("/api/position"));
  if (!data) return;
  state.line = [{ position: data.position, played: null, data }];
  state.index = 0;
  state.focus = null;
  render();
  await computerTurn();
}

function renderRules(markdown) {
  // a small Markdown subset (paragraphs, lists, tables, code blocks, `code`, **bold**,
  // *emphasis*), built as DOM nodes: the text is never parsed as HTML
  const box = $("rules-text");
  box.replaceChildren();
  const inline = (parent, text) => {
    const parts = text.replace(/\[([^\]]*)\]\([^)]*\)/g, "$1").split(/(`[^`]*`|\*\*[^*]+\*\*|\*[^*\s][^*]*\*)/);
    for (const part of parts) {
      if (part.startsWith("`") && part.endsWith("`") && part.length > 1) {
        parent.appendChild(document.createElement("code")).textContent = part.slice(1, -1);
      } else if (part.startsWith("**") && part.endsWith("**") && part.length > 3) {
        parent.appendChild(document.createElement("strong")).textContent = part.slice(2, -2);
      } else if (part.startsWith("*") && part.endsWith("*") && part.length > 2) {
        parent.appendChild(document.createElement("em")).textContent = part.slice(1, -1);
      } else if (part) parent.append(part);
    }
  };
  let fence = null, block = null;  // the open code block; the open paragraph or list item
  for (const line of markdown.split("\n")) {
    if (line.startsWith("```")) {
      if (fence === null) fence = box.appendChild(document.createElement("pre"));
      else fence = null;
      block = null;
    } else if (fence !== null) {
      fence.textContent += (fence.textContent ? "\n" : "") + line;
    } else if (!line.trim()) {
      block = null;
    } else if (/^#+ /.test(line)) {
      inline(box.appendChild(document.createElement("h3")), line.replace(/^#+ /, ""));
      block = null;
    } else if (line.startsWith("|")) {
      if (/^\|[-:| ]+\|$/.test(line)) continue;  // the header's underline
      let table = box.lastElementChild;
      const head = !table || table.tagName !== "TABLE";
      if (head) table = box.appendChild(document.createElement("table"));
      const row = table.appendChild(document.createElement("tr"));
      for (const text of line.slice(1, -1).split("|")) {
        inline(row.appendChild(document.createElement(head ? "th" : "td")), text.trim());
      }
      block = null;
    } else if (/^(- |\d+\. )/.test(line)) {
      const tag = line.startsWith("- ") ? "UL" : "OL";
      let list = box.lastElementChild;
      if (!list || list.tagName !== tag || block === null) list = box.appendChild(document.createElement(tag));
      block = list.appendChild(document.createElement("li"));
      inline(block, line.replace(/^(- |\d+\. )/, ""));
    } else if (block !== null) {
      inline(block, " " + line.trim());
    } else {
      block = box.appendChild(document.createElement("p"));
      inline(block, line.trim());
    }
  }
}

function show(index) {
  if (index < 0 || index >= state.line.length) return;
  state.index = index;
  state.focus = null;
  render();
}

async function jump(text) {
  const data = await load(() => api(`/api/position?position=${encodeURIComponent(text)}`));
  if (!data) return false;
  state.line = [{ position: data.position, played: null, data }];
  state.index = 0;
  state.focus = null;
  render();
  return true;
}

async function copyPosition() {
  const input = $("position-text");
  try {
    await navigator.clipboard.writeText(input.value);
  } catch {
    input.select();
    document.execCommand("copy");
  }
  $("copy").textContent = "copied";
  setTimeout(() => { $("copy").textContent = "copy"; }, 1200);
}

async function main() {
  state.game = await api("/api/game");
  document.title = `${state.game.title} \u2014 cgt explore ${state.game.label}`;
  $("title").textContent = state.game.title;
  renderRules(state.game.rules);
  state.game.players.forEach((name, index) => {
    const option = document.createElement("option");
    option.value = String(index);
    option.textContent = name;
    $("computer-side").appendChild(option);
  });
  const budgets = [100, 1000, 10000, 100000].filter((n) => n <= state.game.playouts.max);
  for (const kind of ["perfect", "search"]) {
    for (const playouts of budgets) {
      const option = document.createElement("option");
      const count = playouts.toLocaleString("en");
      option.value = `${kind}:${playouts}`;
      option.textContent = kind === "perfect" ? `perfect where solved, else search ${count}`
        : `search ${count} playouts`;
      option.title = kind === "perfect"
        ? `a best move where the value is known, else the search's choice after ${count} playouts`
        : `always the search's choice after ${count} playouts`;
      option.selected = kind === "perfect" && playouts === state.game.playouts.default;
      $("strength").appendChild(option);
    }
  }
  $("computer-side").addEventListener("change", async () => {
    const side = $("computer-side").value;
    state.computer = side === "" ? null : Number(side);
    await computerTurn();
  });
  $("new-game").addEventListener("click", newGame);
  $("blind").addEventListener("change", () => {
    state.blind = $("blind").checked;
    document.body.classList.toggle("blind", state.blind);
    render();
  });
  const settings = Object.entries(state.game.params)
    .filter(([, value]) => value !== null)
    .map(([key, value]) => `${key}=${value}`).join(" \u00b7 ");
  $("summary").textContent = `${settings} \u2014 ${state.game.summary}`;
  const reports = $("reports");
  for (const report of state.game.reports) {
    const item = document.createElement("li");
    const link = document.createElement("a");
    link.href = report.url;
    link.textContent = report.title;
    link.target = "_blank";
    item.appendChild(link);
    reports.appendChild(item);
  }
  if (!state.game.reports.length) reports.textContent = "none for this game";
  if (state.game.game === "control") {
    const [first, second] = state.game.players;
    $("legend").insertAdjacentHTML("beforeend",
      `<br><span class="swatch controlled-0"></span>${first} controls ` +
      `<span class="swatch controlled-1"></span>${second} controls (empty cells)`);
  }
  $("start").addEventListener("click", () => show(0));
  $("undo").addEventListener("click", undo);
  $("redo").addEventListener("click", () => show(state.index + 1));
  $("copy").addEventListener("click", copyPosition);
  $("jump-form").addEventListener("submit", (event) => {
    event.preventDefault();
    const text = $("jump-text").value.trim();
    if (text) jump(text);
  });
  document.addEventListener("keydown", (event) => {
    if (event.target.tagName === "INPUT") return;
    if (event.key === "ArrowLeft") undo();
    else if (event.key === "ArrowRight") show(state.index + 1);
    else if (event.key === "Home") show(0);
  });
  const start = decodeURIComponent(location.hash.slice(1));
  // a position in the address (a bookmark, a reload) if it reads, else the game's start
  if (!start || !(await jump(start))) await jump(state.game.start);
}

main().catch(fail);
