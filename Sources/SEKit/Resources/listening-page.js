// The listening test page of `sekit listen make`: plays the stimuli of test.json (embedded below as
// #sekit-test), in an order drawn per rater from the test's seed, keeps progress in localStorage and
// lets the rater download the results as JSON. No network: the audio files sit beside the page.
"use strict";
(() => {
  const test = JSON.parse(document.getElementById("sekit-test").textContent);
  const MASK = (1n << 64n) - 1n;
  const $ = (id) => document.getElementById(id);
  const storageKey = (rater) => "sekit-listen/" + test.stimuliHash + "/" + rater;

  // SplitMix64 seeded with the test's seed XOR the FNV-1a hash of the rater id: the same rater gets
  // the same order on any machine, two raters different orders.
  function generator(rater) {
    let hash = 0xcbf29ce484222325n;
    for (const byte of new TextEncoder().encode(rater)) hash = ((hash ^ BigInt(byte)) * 0x100000001b3n) & MASK;
    let state = (BigInt(test.seed) ^ hash) & MASK;
    const next = () => {
      state = (state + 0x9e3779b97f4a7c15n) & MASK;
      let z = state;
      z = ((z ^ (z >> 30n)) * 0xbf58476d1ce4e5b9n) & MASK;
      z = ((z ^ (z >> 27n)) * 0x94d049bb133111ebn) & MASK;
      return z ^ (z >> 31n);
    };
    return (n) => Number(next() % BigInt(n));
  }

  function shuffled(items, below) {
    const copy = items.slice();
    for (let i = copy.length - 1; i > 0; i--) { const j = below(i + 1); [copy[i], copy[j]] = [copy[j], copy[i]]; }
    return copy;
  }

  function newSession(rater) {
    const below = generator(rater);
    // MUSHRA: a clip's stimuli on one screen, side by side; the P.808 and P.835 tests: one stimulus a screen.
    const screens = test.test === "mushra" ? test.trials.map((trial) => ({id: trial.id, stimuli: trial.stimuli}))
      : test.trials.flatMap((trial) => trial.stimuli.map((s) => ({id: trial.id, stimuli: [s]})));
    const trials = shuffled(screens, below).map((screen) => ({
      id: screen.id, stimuli: shuffled(screen.stimuli, below).map((s) => s.id), swapped: below(2) === 1,
    }));
    return {rater, trials, position: 0, ratings: {}, seconds: {}, startedAt: new Date().toISOString()};
  }

  let session = null;
  let shownAt = 0;
  const save = () => localStorage.setItem(storageKey(session.rater), JSON.stringify(session));
  const trialByID = Object.fromEntries(test.trials.map((t) => [t.id, t]));
  const stimulusByID = Object.fromEntries(test.trials.flatMap((t) => t.stimuli.map((s) => [s.id, s])));

  function player(file, label) {
    const wrap = document.createElement("span");
    const audio = document.createElement("audio");
    audio.src = file; audio.preload = "none";
    const button = document.createElement("button");
    button.type = "button"; button.className = "play"; button.textContent = "▶ " + label;
    button.addEventListener("click", () => {
      document.querySelectorAll("audio").forEach((other) => { if (other !== audio) other.pause(); });
      if (audio.paused) { audio.currentTime = 0; audio.play().catch(() => {}); } else { audio.pause(); }
    });
    audio.addEventListener("play", () => { wrap.dataset.played = "true"; wrap.dispatchEvent(new Event("played", {bubbles: true})); });
    wrap.append(button, audio);
    return wrap;
  }

  function complete(entry) {
    return entry.stimuli.every((id) => test.scales.every((scale) => session.ratings[id] && session.ratings[id][scale] !== undefined));
  }

  function record(id, scale, score) {
    const trial = trialByID[session.trials[session.position].id];
    const entry = session.trials[session.position];
    // CCR: the rater judges the second sample against the first; stored as the stimulus against the input.
    const stored = test.test === "ccr" && entry.swapped ? -score : score;
    session.ratings[id] = session.ratings[id] || {};
    session.ratings[id][scale] = stored;
    session.seconds[id] = (performance.now() - shownAt) / 1000;
    save();
    $("next").disabled = !complete(entry);
    return trial;
  }

  function scaleControl(stimulus, scale, wrap) {
    const box = document.createElement("div");
    box.className = "scale"; box.dataset.scale = scale;
    const current = session.ratings[stimulus.id] && session.ratings[stimulus.id][scale];
    const entry = session.trials[session.position];
    const shown = current === undefined ? undefined : (test.test === "ccr" && entry.swapped ? -current : current);
    if (test.test === "mushra") {
      const input = document.createElement("input");
      input.type = "range"; input.min = test.scoreMin; input.max = test.scoreMax; input.step = 1;
      input.value = shown === undefined ? 50 : shown;
      input.setAttribute("aria-label", "Score of " + wrap.dataset.label);
      const value = document.createElement("output");
      value.textContent = shown === undefined ? "–" : String(shown);
      input.addEventListener("input", () => { value.textContent = input.value; record(stimulus.id, scale, Number(input.value)); });
      box.append(input, value);
    } else {
      const labels = test.labels[scale];
      const name = "r-" + stimulus.id + "-" + scale;
      if (test.scales.length > 1) {
        const title = document.createElement("strong");
        title.textContent = scale.toUpperCase();
        box.append(title);
      }
      labels.forEach((text, index) => {
        const score = test.scoreMin + index;
        const label = document.createElement("label");
        const radio = document.createElement("input");
        radio.type = "radio"; radio.name = name; radio.value = String(score); radio.checked = shown === score;
        radio.addEventListener("change", () => record(stimulus.id, scale, score));
        label.append(radio, " " + score + " " + text);
        box.append(label);
      });
    }
    const enable = () => box.querySelectorAll("input").forEach((i) => { i.disabled = wrap.dataset.played !== "true"; });
    wrap.addEventListener("played", enable);
    enable();
    return box;
  }

  function showTrial() {
    const entry = session.trials[session.position];
    const trial = trialByID[entry.id];
    $("progress").value = session.position; $("progress").max = session.trials.length;
    $("counter").textContent = "Trial " + (session.position + 1) + " of " + session.trials.length;
    $("instruction").textContent = trial.instruction || test.question;
    const list = $("stimuli");
    list.replaceChildren();
    const letters = "ABCDEFGHIJKLMNOPQRSTUVWXYZ";
    if (trial.reference && test.test !== "ccr") {
      const row = document.createElement("div");
      row.className = "reference";
      row.append(player(trial.reference.file, "Reference"));
      list.append(row);
    }
    entry.stimuli.forEach((id, index) => {
      const stimulus = stimulusByID[id];
      const row = document.createElement("div");
      row.className = "stimulus"; row.dataset.stimulus = id; row.dataset.condition = stimulus.condition; row.dataset.trial = trial.id;
      if (test.test === "ccr") {
        const first = entry.swapped ? stimulus.file : trial.reference.file, second = entry.swapped ? trial.reference.file : stimulus.file;
        const firstPlayer = player(first, "First"), secondPlayer = player(second, "Second");
        row.dataset.label = "the second sample against the first";
        row.dataset.swapped = String(entry.swapped);
        // Both samples must be heard before rating.
        const both = () => {
          if (firstPlayer.dataset.played === "true" && secondPlayer.dataset.played === "true") {
            row.dataset.played = "true"; row.dispatchEvent(new Event("played"));
          }
        };
        firstPlayer.addEventListener("played", both); secondPlayer.addEventListener("played", both);
        row.append(firstPlayer, secondPlayer);
      } else {
        const label = test.test === "mushra" ? "Sample " + letters[index % 26] : "Sample";
        row.dataset.label = label;
        const sample = player(stimulus.file, label);
        sample.addEventListener("played", () => { row.dataset.played = "true"; row.dispatchEvent(new Event("played")); });
        row.append(sample);
      }
      test.scales.forEach((scale) => row.append(scaleControl(stimulus, scale, row)));
      list.append(row);
    });
    $("next").disabled = !complete(entry);
    $("next").textContent = session.position + 1 === session.trials.length ? "Finish" : "Next";
    shownAt = performance.now();
  }

  function results() {
    const ratings = [];
    for (const entry of session.trials) {
      for (const id of entry.stimuli) {
        const stimulus = stimulusByID[id];
        for (const scale of test.scales) {
          ratings.push({trial: entry.id, stimulus: id, condition: stimulus.condition, file: stimulus.file, scale,
                        score: session.ratings[id][scale], seconds: Math.round((session.seconds[id] || 0) * 1000) / 1000});
        }
      }
    }
    return {format: "sekit-listening-results", version: 1, test: test.name, kind: test.test, stimuliHash: test.stimuliHash,
            rater: session.rater, startedAt: session.startedAt, finishedAt: session.finishedAt, ratings};
  }

  function show(section) {
    for (const id of ["start", "trial", "done"]) $(id).hidden = id !== section;
    if (section === "trial") showTrial();
  }

  $("begin").addEventListener("click", () => {
    const rater = $("rater").value.trim();
    if (!rater) { $("rater").focus(); return; }
    const stored = localStorage.getItem(storageKey(rater));
    session = stored ? JSON.parse(stored) : newSession(rater);
    save();
    show(session.finishedAt ? "done" : "trial");
  });
  $("next").addEventListener("click", () => {
    if (!complete(session.trials[session.position])) return;
    document.querySelectorAll("audio").forEach((a) => a.pause());
    session.position += 1;
    if (session.position >= session.trials.length) {
      session.position = session.trials.length - 1;
      session.finishedAt = new Date().toISOString();
      save();
      show("done");
    } else {
      save();
      showTrial();
    }
  });
  $("download").addEventListener("click", () => {
    const blob = new Blob([JSON.stringify(results(), null, 1)], {type: "application/json"});
    const link = document.createElement("a");
    link.href = URL.createObjectURL(blob);
    link.download = "results-" + session.rater.replace(/[^A-Za-z0-9._-]/g, "_") + ".json";
    document.body.append(link);
    link.click();
    link.remove();
  });
  window.sekitListeningResults = () => (session ? results() : null);
  $("title").textContent = test.title;
  show("start");
})();
