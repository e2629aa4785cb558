// The review on the page of one finished game (game.html): from /api/games/{id}/review, the
// win-chance curve of both players (turns on the x axis, mistakes marked), each player's
// accuracy and biggest swing, the mistakes with the better choice spelt out, and the luck.
// Plain JavaScript, its own helpers; the elements are built with DOM calls and textContent.
"use strict";

(function () {
  const SVG_NS = "http://www.w3.org/2000/svg";

  function make(tag, attrs, ...children) {
    const node = tag.startsWith("svg:")
      ? document.createElementNS(SVG_NS, tag.slice(4)) : document.createElement(tag);
    for (const [key, value] of Object.entries(attrs || {})) {
      if (value === false || value === null || value === undefined) continue;
      if (key === "text") node.textContent = value;
      else node.setAttribute(key, value === true ? "" : value);
    }
    for (const child of children) if (child) node.append(child);
    return node;
  }

  const percent = (value) => `${Math.round(100 * value)} %`;

  // The curve: each player's chance of winning at the start of every turn.
  function curve(review) {
    const width = 480, height = 250, left = 76, right = 12, top = 14, bottom = 30;
    const points = review.curve;
    const turns = Math.max(1, points.length - 1);
    const x = (turn) => left + ((width - left - right) * turn) / turns;
    const y = (chance) => height - bottom - (height - top - bottom) * chance;
    const svg = make("svg:svg", {
      viewBox: `0 0 ${width} ${height}`, class: "chart-svg review-curve", role: "img",
      "aria-label": "each player's chance of winning at the start of every turn",
    });
    for (const [chance, label] of [[0, "0 %"], [0.5, "50 %"], [1, "100 %"]]) {
      svg.append(make("svg:line", {
        x1: left, x2: width - right, y1: y(chance), y2: y(chance),
        class: chance === 0.5 ? "half" : "axis",
      }));
      svg.append(make("svg:text", { x: left - 6, y: y(chance) + 7, class: "tick end", text: label }));
    }
    svg.append(make("svg:text", {
      x: width - right, y: height - 6, class: "tick end",
      text: points.length - 1 === 1 ? "1 turn" : `${points.length - 1} turns, both players`,
    }));
    review.curve_players.forEach((name, seat) => {
      const line = points.map((point, turn) => `${x(turn)},${y(point[seat])}`).join(" ");
      svg.append(make("svg:polyline", { points: line, class: `line p${seat % 6}` },
        make("svg:title", { text: name })));
    });
    for (const decision of review.decisions) {
      if (!decision.severity) continue;
      const seat = review.curve_players.indexOf(decision.player);
      const before = points[decision.turn - 1], after = points[decision.turn];
      if (seat < 0 || !before || !after) continue;
      const chance = (before[seat] + after[seat]) / 2;
      svg.append(make("svg:circle", {
        cx: x(decision.turn - 0.5), cy: y(chance), r: decision.severity === "blunder" ? 9 : 7,
        class: `mark ${decision.severity}`,
      }, make("svg:title", { text: `turn ${decision.turn}, ${decision.player}: ${decision.line}` })));
    }
    return svg;
  }

  function swingText(review, swing) {
    if (!swing) return "";
    if (review.curve.length) {
      return `turn ${swing.turn}: ${swing.what} (${percent(swing.before)} → ${percent(swing.after)})`;
    }
    const change = Math.round(swing.change);
    return `turn ${swing.turn}: ${swing.what} (${change >= 0 ? "+" : ""}${change} on ${Math.round(swing.before)} expected)`;
  }

  function playerRows(review) {
    return review.players.flatMap((player, index) => {
      const rows = [make("tr", {},
        make("th", { scope: "row", class: `p${index % 6}`, text: player.name }),
        make("td", { class: "score", text: `${player.accuracy.toFixed(1)} %` }),
        make("td", { class: "score", text: String(player.mistakes) }),
        make("td", { class: "score", text: String(player.blunders) }))];
      if (player.swings.length) {
        rows.push(make("tr", { class: "swing" }, make("td", {
          colspan: 4, text: `biggest swing, ${swingText(review, player.swings[0])}`,
        })));
      }
      return rows;
    });
  }

  function mistakeItems(review) {
    const marked = review.decisions.filter((d) => d.severity);
    if (!marked.length) return [make("li", { class: "muted", text: "no mistakes" })];
    return marked.map((d) => {
      const threw = d.thrown.length ? ` (threw ${d.thrown.join(" ")})` : "";
      return make("li", { class: d.severity },
        make("span", { class: `tag ${d.severity}`, text: d.severity }),
        make("span", { text: ` turn ${d.turn}, ${d.player}${threw}: ` }),
        make("strong", { text: `${d.best.text}: ${valueText(d, d.best.value)}` }),
        make("span", { text: ` — you ${d.made.past}: ${valueText(d, d.made.value)}` }));
    });
  }

  function valueText(decision, value) {
    return decision.measure === "points" ? `${Math.round(value)} points` : percent(value);
  }

  async function startReview() {
    const match = window.location.pathname.match(/\/game\/(\d+)/);
    const box = document.getElementById("review");
    if (!match || !box) return;
    const how = document.getElementById("review-how");
    box.hidden = false;
    let review;
    try {
      const answer = await fetch(`/api/games/${match[1]}/review`);
      review = await answer.json();
      if (!answer.ok) throw new Error(review.error || String(answer.status));
    } catch (problem) {
      how.textContent = `No review: ${problem.message}`;
      return;
    }
    how.textContent = review.evaluator === "optimal"
      ? `Each decision against the best one by the chance of winning (the solved table). Mistakes lose ${percent(review.thresholds.mistake)} or more, blunders ${percent(review.thresholds.blunder)}.`
      : `No win-chance curve: ${review.note}.`;
    const chartBox = document.getElementById("review-curve");
    chartBox.replaceChildren(review.curve.length ? curve(review) : "");
    chartBox.hidden = !review.curve.length;
    document.getElementById("review-players").tBodies[0].replaceChildren(...playerRows(review));
    document.getElementById("review-mistakes").replaceChildren(...mistakeItems(review));
    document.getElementById("review-luck").replaceChildren(
      ...review.players.map((p) => make("li", { text: p.luck.line })));
  }

  if (document.body.dataset.page === "game") startReview();
})();
