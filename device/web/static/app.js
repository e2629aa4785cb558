// dicekeeper's web pages: the live scoreboard (index.html) and one finished game (game.html).
// Plain JavaScript, no build step: the state arrives as JSON from /api/events (server-sent
// events) and every control is a POST with the pairing token (see web-contract in the docs).
"use strict";

const SVG = "http://www.w3.org/2000/svg";
const PIPS = {
  1: [[1, 1]], 2: [[0, 0], [2, 2]], 3: [[0, 0], [1, 1], [2, 2]],
  4: [[0, 0], [2, 0], [0, 2], [2, 2]], 5: [[0, 0], [2, 0], [1, 1], [0, 2], [2, 2]],
  6: [[0, 0], [2, 0], [0, 1], [2, 1], [0, 2], [2, 2]],
};
const TOKEN = "dicekeeper-token";

const $ = (id) => document.getElementById(id);

function el(tag, attrs, ...children) {
  const node = tag.startsWith("svg:")
    ? document.createElementNS(SVG, tag.slice(4)) : document.createElement(tag);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === false || value === null || value === undefined) continue;
    if (key === "class") node.setAttribute("class", value);
    else if (key === "text") node.textContent = value;
    else if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else node.setAttribute(key, value === true ? "" : value);
  }
  for (const child of children) if (child) node.append(child);
  return node;
}

// A die as an SVG face: pips for 1-6, the number beyond 6, "?" for a die not read (with the
// reader's likeliest value small in a corner when it has a guess), a cross for "not a die".
function die(value, { struck = false, ring = "", small = false, guess = null } = {}) {
  const unread = value === null || value === undefined;
  const guessed = unread && !struck && guess !== null;
  const label = struck ? "not a die" : guessed ? `not read, likeliest ${guess}`
    : unread ? "not read" : String(value);
  const svg = el("svg:svg", {
    viewBox: "0 0 100 100",
    class: `die${small ? " small" : ""}${ring ? ` ring-${ring}` : ""}${guessed ? " guessed" : ""}`,
    role: "img", "aria-label": label,
  });
  svg.append(el("svg:rect", { x: 6, y: 6, width: 88, height: 88, rx: 16, class: "face" }));
  if (struck) {
    svg.append(el("svg:path", { d: "M22 22 L78 78 M78 22 L22 78", class: "cross" }));
  } else if (guessed) {
    svg.append(el("svg:text", { x: 40, y: 64, class: "unknown", text: "?" }));
    svg.append(el("svg:text", { x: 84, y: 86, class: "guess", text: String(guess) }));
  } else if (unread) {
    svg.append(el("svg:text", { x: 50, y: 68, class: "unknown", text: "?" }));
  } else if (PIPS[value]) {
    for (const [c, r] of PIPS[value]) {
      svg.append(el("svg:circle", {
        cx: 28 + 22 * c, cy: 28 + 22 * r, r: 9, class: value === 1 ? "pip one" : "pip",
      }));
    }
  } else {
    svg.append(el("svg:text", { x: 50, y: 64, class: "number", text: String(value) }));
  }
  return svg;
}

// The chart: every player's running total after each of their turns, and the target as a line.
function chart(players, target, current) {
  const width = 480, height = 250, left = 44, right = 10, top = 12, bottom = 30;
  const played = Math.max(0, ...players.map((p) => p.history.length));
  const turns = Math.max(1, played);
  const most = Math.max(target || 0, 100, ...players.flatMap((p) => p.history));
  const x = (turn) => left + ((width - left - right) * turn) / turns;
  const y = (score) => height - bottom - ((height - top - bottom) * score) / most;
  const svg = el("svg:svg", {
    viewBox: `0 0 ${width} ${height}`, class: "chart-svg", role: "img",
    "aria-label": "each player's total after each turn",
  });
  svg.append(el("svg:line", { x1: left, x2: width - right, y1: y(0), y2: y(0), class: "axis" }));
  svg.append(el("svg:text", { x: left - 8, y: y(0) + 8, class: "tick end", text: "0" }));
  if (target) {
    svg.append(el("svg:line", {
      x1: left, x2: width - right, y1: y(target), y2: y(target), class: "goal",
    }));
    svg.append(el("svg:text", {
      x: left + 6, y: y(target) + 26, class: "goal-label", text: `goal ${target}`,
    }));
  }
  if (most > (target || 0)) { // the scale: the highest total, where no goal line gives it
    svg.append(el("svg:line", { x1: left, x2: width - right, y1: y(most), y2: y(most), class: "top" }));
    svg.append(el("svg:text", { // at the right: the goal's label, at the left, may lie just below
      x: width - right - 6, y: y(most) + 24, class: "tick end top-label", text: String(most),
    }));
  }
  svg.append(el("svg:text", {
    x: width - right, y: height - 6, class: "tick end",
    text: played === 1 ? "1 turn" : played ? `${played} turns` : "no turns yet",
  }));
  players.forEach((player, index) => {
    const points = [[x(0), y(0)], ...player.history.map((s, t) => [x(t + 1), y(s)])];
    const cls = `line p${index % 6}${index === current ? " current" : ""}`;
    svg.append(el("svg:polyline", { points: points.map((p) => p.join(",")).join(" "), class: cls }));
    const [lx, ly] = points[points.length - 1];
    svg.append(el("svg:circle", { cx: lx, cy: ly, r: 7, class: `dot p${index % 6}` },
      el("svg:title", { text: `${player.name}: ${player.score}` })));
  });
  return svg;
}

// An ISO time as the phone's own clock shows it.
function clock(iso) {
  const date = new Date(iso || "");
  if (Number.isNaN(date.getTime())) return iso || "";
  return date.toLocaleString([], { dateStyle: "medium", timeStyle: "short" });
}

function scoreRows(tbody, players, { current = null, winner = null } = {}) {
  tbody.replaceChildren(...players.map((player, index) => {
    const row = el("tr", {
      class: [index === current ? "current" : "", player.name === winner ? "winner" : ""]
        .join(" ").trim() || null,
    });
    row.append(
      el("td", { class: `swatch p${index % 6}`, "aria-hidden": "true" }),
      el("td", { class: "name" }, player.name,
        player.computer ? el("span", { class: "cpu", text: "computer" }) : null,
        player.name === winner ? el("span", { class: "crown", text: "winner" }) : null),
      el("td", { class: "score", text: String(player.score) }),
    );
    return row;
  }));
}

// ---------------------------------------------------------------- the scoreboard

const board = {
  state: null,
  key: "", // the last state drawn, but for its camera picture
  replyKey: "", // the state the reply answered
  draft: null, // the dice being corrected: numbers, "x" (not a die) or null (not read yet)
  draftFrom: "", // the dice the draft started from, to drop it when the tray changes
  points: [], // by die of the draft: where a die the reader missed lies ([x, y]) or null
  picture: 0, // the camera picture the draft's dice are pointed at on
  camera: -1,
  showCamera: false,
  winner: undefined,
  source: null,
};

function token() {
  const saved = JSON.parse(sessionStorage.getItem(TOKEN) || "null");
  if (!saved) return "";
  if (saved.expires && saved.expires * 1000 < Date.now()) {
    sessionStorage.removeItem(TOKEN);
    return "";
  }
  return saved.token;
}

// The table's answer to this phone's request, beside the buttons, until the table moves on.
function reply(text, isError) {
  const box = $("reply");
  box.hidden = !text;
  box.dataset.said = text || ""; // the table's words, to compare with its message
  box.textContent = pageWords(text || "");
  box.classList.toggle("error", Boolean(isError));
  board.replyKey = board.state ? actionKey(board.state) : "";
  if (board.state) { // the same words as the table's message: shown once, here
    $("message").hidden = !board.state.message || board.state.message === box.dataset.said;
  }
}

function setLive(text, ok) {
  const live = $("live");
  live.textContent = text;
  live.classList.toggle("ok", ok);
  live.classList.toggle("wait", !ok);
}

async function api(path, body) {
  const headers = { "Content-Type": "application/json" };
  if (token()) headers.Authorization = `Bearer ${token()}`;
  let answer;
  try {
    answer = await fetch(path, { method: "POST", headers, body: JSON.stringify(body || {}) });
  } catch (error) {
    reply("The table did not answer: is the phone still on its network?", true);
    return null;
  }
  let data = {};
  try { data = await answer.json(); } catch (error) { data = {}; }
  if (answer.status === 401 && path !== "/api/pair") {
    sessionStorage.removeItem(TOKEN);
    redraw();
    reply("The pairing has expired: enter the code shown on the table again.", true);
    return null;
  }
  if (!answer.ok) {
    reply(data.error || data.message || `The table answered ${answer.status}.`, true);
    return null;
  }
  if (data.state) render(data.state);
  reply(data.message || "", false);
  return data;
}

function diceKey(state) {
  return JSON.stringify([state.dice, state.current, state.phase]);
}

// What the next action at the table or on a phone changes (not the message: a refusal arrives
// as the table's message too): a reply stays until one of these moves on.
function actionKey(state) {
  return JSON.stringify([state.dice, state.current, state.phase, state.selected, state.kept,
    state.turn_total, state.players.map((p) => [p.name, p.score]), state.rules]);
}

// The reader's likeliest value of die ``index`` when it was not read (null: read, or no guess;
// the state gives one only for a die not read, lying still and not struck).
function guessOf(state, index) {
  const guess = (state.likely || [])[index];
  return Number.isInteger(guess) ? guess : null;
}

function renderDice(state) {
  const dice = $("dice");
  const correcting = board.draft !== null;
  const tableCorrecting = state.phase === "correcting";
  const selected = new Set();
  const option = state.options[state.selected];
  if (option && !correcting && !tableCorrecting) {
    const wanted = {};
    for (const v of option.dice) wanted[v] = (wanted[v] || 0) + 1;
    state.dice.forEach((v, i) => {
      if (v !== null && wanted[v] > 0) { wanted[v] -= 1; selected.add(i); }
    });
  }
  const values = correcting ? board.draft : state.dice;
  const paired = Boolean(token());
  dice.replaceChildren(...values.map((value, index) => {
    const struck = correcting ? value === "x" : state.struck.includes(index);
    const changed = correcting && value !== (state.struck.includes(index) ? "x" : state.dice[index]);
    const ring = changed ? "keep" : correcting ? "edit"
      : tableCorrecting && index === state.cursor ? "edit"
      : selected.has(index) ? "keep" : "";
    const face = die(struck ? null : value, { struck, ring, guess: guessOf(state, index) });
    const canTap = paired && canCorrect(state);
    return el("button", {
      class: `die-button${state.phase === "rolling" && value === null ? " rolling" : ""}`,
      disabled: !canTap, "data-index": index,
      "aria-label": `die ${index + 1}: ${face.getAttribute("aria-label")}`,
      onclick: () => stepDie(index),
    }, face);
  }));
  if (!values.length) {
    dice.append(el("p", {
      class: "empty", text: state.phase === "waiting" ? "throw the dice" : "the tray is empty",
    }));
  }
  dice.classList.toggle("bust", state.phase === "bust");
  $("correcting").hidden = !correcting;
  $("correct-ok").disabled = correcting && (board.draft.includes(null) || !draftChanged(state));
  $("correct-guess").hidden = !correcting
    || !board.draft.some((v, i) => v === null && guessOf(state, i) !== null);
  $("tray-label").textContent = correcting ? "correct the dice as they lie"
    : tableCorrecting ? "being corrected at the table" : state.tray_label;
  renderPicture(state);
}

// The table's words for its buttons (ROLL, STOP, SELECT, hold STOP, hold SELECT) as this page
// names its own: the prompt "SELECT: next keep  ROLL: keep+throw  STOP: keep+bank" reads
// "Tap a keep · Keep & roll · Keep & bank".
const BUTTON_WORD = /\b(hold SELECT|hold STOP|ROLL|STOP|SELECT)\b/g;
const SAID_BY_THE_BUTTON = ["keep+throw", "keep+bank", "new game", "next keep"];

function promptWords(state) {
  if (state.phase === "menu") return "The menu is open at the table.";
  if (state.phase === "correcting") return "The dice are being corrected at the table.";
  return pageWords(state.prompt);
}

function pageWords(text) {
  if (!text) return "";
  const words = {
    ROLL: $("roll").textContent, STOP: $("bank").textContent, SELECT: "Tap a keep",
    "hold STOP": "Correct the dice", "hold SELECT": "Players, rules, new game",
  };
  return text.split(/\s{2,}/).map((clause) => {
    const said = clause.match(/^(hold SELECT|hold STOP|ROLL|STOP|SELECT): (.*)$/);
    if (said && SAID_BY_THE_BUTTON.includes(said[2])) return words[said[1]];
    if (said) return `${words[said[1]]}: ${said[2]}`;
    return clause.replace(BUTTON_WORD, (word) => `“${words[word]}”`);
  }).join(" · ");
}

// Whether the dice lie still for a correction: read (or refused), not tumbling, not being
// corrected with the buttons, the game not over. The table has the last word.
function canCorrect(state) {
  return state.dice.length > 0 && state.winner === null
    && !["rolling", "correcting", "menu"].includes(state.phase);
}

// The dice as the table holds them, as a draft: numbers, "x" (not a die) or null (not read).
function asRead(state) {
  return state.dice.map((v, i) => (state.struck.includes(i) ? "x" : v));
}

// Open the correction with every die as read: opening it changes nothing.
function openCorrection() {
  const state = board.state;
  if (!state || !token() || !canCorrect(state)) return false;
  if (board.draft === null) {
    board.draft = asRead(state);
    board.draftFrom = diceKey(state);
    board.points = board.draft.map(() => null);
    board.picture = state.camera;
  }
  return true;
}

// The tray's picture while correcting, the dice the reader saw boxed: a tap on a box strikes
// that die out (or brings it back), a tap where a die it missed lies places that die there.
function renderPicture(state) {
  const show = board.draft !== null && board.picture > 0 && state.boxes.length > 0;
  $("correct-picture").hidden = !show;
  if (!show) return;
  const img = $("correct-camera");
  if (img.dataset.n !== String(board.picture)) {
    img.dataset.n = String(board.picture);
    img.src = `/api/camera.jpg?n=${board.picture}`;
  }
  const mark = (index, [x0, y0, x1, y1], kind) => el("span", {
    class: `mark ${kind}`, "data-index": index, text: String(index + 1),
    style: `left:${100 * x0}%;top:${100 * y0}%;width:${100 * (x1 - x0)}%;`
      + `height:${100 * (y1 - y0)}%`,
  });
  const marks = state.boxes.map((box, i) => mark(i, box, board.draft[i] === "x" ? "struck" : "seen"));
  // A die placed is as large as the dice read, as the kept photo labels it (`device.photos`).
  const median = (xs) => xs.sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  const w = median(state.boxes.map(([x0, , x1]) => x1 - x0)) / 2;
  const h = median(state.boxes.map(([, y0, , y1]) => y1 - y0)) / 2;
  board.points.forEach((p, i) => {
    if (p) marks.push(mark(i, [p[0] - w, p[1] - h, p[0] + w, p[1] + h], "added"));
  });
  $("correct-boxes").replaceChildren(...marks);
}

function tapPicture(event) {
  const state = board.state;
  if (!state || board.draft === null) return;
  const target = event.target.closest(".mark");
  const index = target ? Number(target.dataset.index) : -1;
  if (target && target.classList.contains("added")) {
    board.points[index] = null; // placed there by mistake: placed again with the next tap
  } else if (target) {
    const read = asRead(state)[index];
    board.draft[index] = board.draft[index] === "x" ? (read === "x" ? null : read) : "x";
  } else {
    const missing = board.draft.findIndex(
      (v, i) => i >= state.boxes.length && v !== "x" && !board.points[i]);
    if (missing < 0) {
      reply("No die is missing from what the reader saw: tap a box to strike it out.", true);
      return;
    }
    const frame = $("correct-marks").getBoundingClientRect();
    const x = (event.clientX - frame.left) / frame.width;
    const y = (event.clientY - frame.top) / frame.height;
    board.points[missing] = [Math.min(1, Math.max(0, x)), Math.min(1, Math.max(0, y))];
  }
  renderDice(state);
  renderOptions(state);
  renderControls();
}

// Whether the draft differs from the dice as read (Confirm sends only a change).
function draftChanged(state) {
  const read = asRead(state);
  return board.draft !== null && board.draft.some((v, i) => v !== read[i]);
}

function stepDie(index) {
  const state = board.state;
  if (!openCorrection()) return;
  const faces = state.faces || 6;
  const value = board.draft[index];
  // A die not read first takes the reader's likeliest value, as ROLL does at the table.
  const first = value === null ? guessOf(state, index) || 1 : 1;
  board.draft[index] = value === null || value === "x" ? first : value >= faces ? "x" : value + 1;
  renderDice(state);
  renderOptions(state);
  renderControls();
}

function renderOptions(state) {
  const paired = Boolean(token());
  const box = $("options");
  box.hidden = board.draft !== null;
  box.replaceChildren(...state.options.map((option, index) => el("button", {
    class: `option${index === state.selected ? " selected" : ""}`,
    disabled: !paired || board.draft !== null,
    "aria-pressed": String(index === state.selected),
    onclick: () => api("/api/keep", { option: index }),
  }, ...option.dice.map((v) => die(v, { small: true })),
  el("span", { class: "points", text: `= ${option.score}` }))));
}

function renderControls() {
  const state = board.state;
  const paired = Boolean(token());
  document.body.classList.toggle("unpaired", !paired); // the pairing first, while it is needed
  $("pair-form").hidden = paired;
  $("paired").hidden = !paired;
  $("controls").hidden = !paired || board.draft !== null;
  $("setup").hidden = !paired;
  if (!state) return;
  const over = state.winner !== null;
  const keeping = state.options.length > 0;
  $("roll").textContent = over ? "New game" : keeping ? "Keep & roll" : "Roll";
  $("roll").classList.toggle("span", over);
  $("bank").textContent = keeping ? "Keep & bank" : "Bank";
  $("correct").hidden = !canCorrect(state) || board.draft !== null;
  $("roll").hidden = board.draft !== null;
  $("bank").hidden = over || board.draft !== null;
  const names = state.players.map((p) => p.name);
  const select = $("remove-name");
  if (select.dataset.names !== JSON.stringify(names)) {
    select.dataset.names = JSON.stringify(names);
    select.replaceChildren(...names.map((n) => el("option", { value: n, text: n })));
  }
  const rules = state.rules_available || []; // the rule sets the table can play
  const pick = $("rules-name");
  if (pick.dataset.rules !== JSON.stringify([rules, state.rules])) {
    pick.dataset.rules = JSON.stringify([rules, state.rules]);
    const all = !state.rules || rules.includes(state.rules) ? rules : [state.rules, ...rules];
    pick.replaceChildren(...all.map((n) => el("option", {
      value: n, text: n, selected: n === state.rules,
    })));
  }
}

function renderCamera(state) {
  const img = $("camera");
  $("camera-none").hidden = !board.showCamera || state.camera > 0;
  img.hidden = !board.showCamera || state.camera <= 0;
  if (board.showCamera && state.camera > 0 && state.camera !== board.camera) {
    board.camera = state.camera;
    img.src = `/api/camera.jpg?n=${state.camera}`;
  }
}

function render(state) {
  const key = JSON.stringify({ ...state, camera: 0 });
  board.state = state;
  if (key === board.key) { // only a new camera picture: leave the rest as it is
    renderCamera(state);
    return;
  }
  board.key = key;
  if (!$("reply").hidden && actionKey(state) !== board.replyKey) reply("", false);
  if (board.draft !== null && diceKey(state) !== board.draftFrom) {
    board.draft = null;
    reply("The dice changed at the table: the correction was dropped.", true);
  }
  const current = state.current === null ? null : state.players[state.current];
  $("rules").textContent = state.target ? `${state.rules} to ${state.target}` : state.rules;
  const turn = $("turn");
  if (state.winner !== null) {
    const winner = state.players.find((p) => p.name === state.winner);
    turn.textContent = `${state.winner} wins${winner ? ` with ${winner.score}` : ""}!`;
  } else if (current) {
    turn.textContent = `${current.name}'s turn`;
    if (current.computer) turn.append(el("span", { class: "cpu", text: "computer" }));
  } else {
    turn.textContent = state.players.length ? "No game yet" : "Add players to start";
  }
  turn.classList.toggle("won", state.winner !== null);
  $("final").hidden = !state.final_round || state.winner !== null;
  const message = $("message");
  message.hidden = !state.message || state.message === $("reply").dataset.said;
  message.textContent = pageWords(state.message);
  message.classList.toggle("alert", state.alert);
  const last = $("last-turn");
  last.hidden = !state.last_turn || state.last_turn === state.message;
  last.textContent = state.last_turn ? `Last turn: ${state.last_turn}` : "";
  const total = $("turn-total");
  total.textContent = String(state.turn_total);
  total.classList.toggle("lost", state.phase === "bust");
  $("kept").replaceChildren(...(state.kept.length ? [el("span", { text: "kept" })] : []),
    ...state.kept.map((v) => die(v, { small: true })));
  renderDice(state);
  renderOptions(state);
  scoreRows($("scores").tBodies[0], state.players,
    { current: state.winner === null ? state.current : null, winner: state.winner });
  $("chart").replaceChildren(chart(state.players, state.target, state.current));
  renderCamera(state);
  renderControls();
  $("prompt").textContent = promptWords(state); // after the buttons' words are set
  if (state.winner !== board.winner) {
    board.winner = state.winner;
    loadGames();
  }
}

// Draw the newest state again whatever changed (the pairing, a correction begun or dropped).
function redraw() {
  board.key = "";
  if (board.state) render(board.state); else renderControls();
}

async function loadGames() {
  let games;
  try {
    const answer = await fetch("/api/games");
    if (!answer.ok) return;
    games = await answer.json();
  } catch (error) {
    return;
  }
  const list = $("games");
  if (!games.length) return;
  list.replaceChildren(...games.slice(0, 20).map((game) => { // newest first
    const when = clock(game.finished || game.started);
    const scores = game.players.map((p) => `${p.name} ${p.score}`).join(", ");
    return el("li", {}, el("a", { href: `/game/${game.id}`, text: `${game.rules}: ${scores}` }),
      el("span", { class: "muted", text: ` ${game.winner ? `${game.winner} won, ` : ""}${when}` }));
  }));
}

function connect() {
  const source = new EventSource("/api/events");
  board.source = source;
  source.addEventListener("state", (event) => {
    setLive("live", true);
    render(JSON.parse(event.data));
  });
  source.addEventListener("open", () => {
    setLive("live", true);
    checkToken(); // a table started again knows no earlier token
  });
  source.addEventListener("error", () => {
    setLive("reconnecting…", false);
    if (source.readyState === EventSource.CLOSED) { // the browser gave up: try again ourselves
      setTimeout(connect, 3000);
    }
  });
}

async function checkToken() {
  if (!token()) return;
  try {
    const answer = await fetch("/api/state", { headers: { Authorization: `Bearer ${token()}` } });
    const state = await answer.json();
    if (!state.paired) sessionStorage.removeItem(TOKEN);
  } catch (error) { /* offline: keep the token, the next request will tell */ }
  redraw();
}

function startBoard() {
  $("pair-form").addEventListener("submit", async (event) => {
    event.preventDefault();
    const code = $("pair-code").value.trim();
    const data = await api("/api/pair", { code });
    if (data && data.token) {
      sessionStorage.setItem(TOKEN, JSON.stringify({ token: data.token, expires: data.expires }));
      $("pair-code").value = "";
      reply("", false);
      redraw();
    } else if (data === null && !$("reply").textContent.trim()) {
      reply("That is not the code on the table's screen.", true);
    }
  });
  $("unpair").addEventListener("click", () => {
    sessionStorage.removeItem(TOKEN);
    board.draft = null;
    reply("", false);
    redraw();
  });
  $("roll").addEventListener("click", () => api(
    board.state && board.state.winner !== null ? "/api/new-game" : "/api/roll", {}));
  $("bank").addEventListener("click", () => api("/api/bank", {}));
  $("correct").addEventListener("click", () => {
    if (openCorrection()) redraw();
  });
  $("correct-cancel").addEventListener("click", () => {
    board.draft = null;
    redraw();
  });
  $("correct-marks").addEventListener("click", tapPicture);
  $("correct-ok").addEventListener("click", async () => {
    const dice = board.draft.map((v) => (v === "x" ? null : v));
    const at = board.draft.map((v, i) => (v !== "x" && board.points[i]) || null);
    const data = await api("/api/correct", at.some((p) => p) ? { dice, at } : { dice });
    if (data) {
      board.draft = null;
      redraw();
    }
  });
  $("add-form").addEventListener("submit", async (event) => {
    event.preventDefault();
    if (await api("/api/players", { add: $("add-name").value.trim() })) $("add-name").value = "";
  });
  $("remove-form").addEventListener("submit", (event) => {
    event.preventDefault();
    const name = $("remove-name").value;
    if (name && window.confirm(`Remove ${name} from the game?`)) api("/api/players", { remove: name });
  });
  $("rules-form").addEventListener("submit", (event) => {
    event.preventDefault();
    const name = $("rules-name").value;
    if (window.confirm(`Play ${name}? This starts a new game.`)) api("/api/rules", { rules: name });
  });
  $("new-game").addEventListener("click", () => {
    if (window.confirm("Start a new game with the same players?")) api("/api/new-game", {});
  });
  $("camera-toggle").addEventListener("click", () => {
    board.showCamera = !board.showCamera;
    board.camera = -1;
    $("camera-toggle").textContent = board.showCamera ? "Hide the tray's picture"
      : "Show the tray's picture";
    $("camera-toggle").setAttribute("aria-expanded", String(board.showCamera));
    if (board.state) renderCamera(board.state);
  });
  $("camera").addEventListener("error", () => {
    $("camera").hidden = true;
    $("camera-none").hidden = !board.showCamera;
  });
  renderControls();
  connect();
  loadGames();
}

// ---------------------------------------------------------------- one finished game

async function startGame() {
  const match = window.location.pathname.match(/\/game\/(\d+)/);
  const id = match ? match[1] : "";
  const error = $("error");
  let game;
  try {
    const answer = await fetch(`/api/games/${id}`);
    if (!answer.ok) throw new Error(answer.status === 404 ? `there is no game ${id}` : answer.status);
    game = await answer.json();
  } catch (problem) {
    error.hidden = false;
    error.textContent = `Could not load the game: ${problem.message}`;
    return;
  }
  document.title = `dicekeeper: game ${game.id}`;
  $("title").textContent = `Game ${game.id}: ${game.rules}`;
  const when = [game.started, game.finished].filter(Boolean).map(clock).join(" to ");
  $("when").textContent = `${when}${game.winner ? ` · ${game.winner} won` : " · not finished"}`;
  $("downloads").replaceChildren(
    el("a", { href: `/api/games/${game.id}`, download: `game-${game.id}.json`, text: "JSON" }),
    el("a", { href: `/api/games/${game.id}.csv`, download: `game-${game.id}.csv`, text: "CSV" }),
  );
  const players = game.players.map((p) => ({ ...p, history: [] }));
  const byName = Object.fromEntries(players.map((p) => [p.name, p]));
  for (const turn of game.turns) if (byName[turn.player]) byName[turn.player].history.push(turn.total);
  scoreRows($("scores").tBodies[0], players, { winner: game.winner });
  $("chart").replaceChildren(chart(players, game.target || 0, null));
  $("turns").tBodies[0].replaceChildren(...game.turns.map((turn, index) => el("tr",
    { class: turn.bust ? "bust" : null },
    el("td", { text: String(index + 1) }), el("td", { text: turn.player }),
    el("td", { class: "score points", text: turn.bust ? "bust" : `+${turn.points}` }),
    el("td", { class: "score", text: String(turn.total) }),
    el("td", { class: "muted", text: turn.corrected ? `${turn.corrected} corrected` : "" }))));
}

if (document.body.dataset.page === "game") startGame(); else startBoard();
