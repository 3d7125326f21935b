// SPDX-License-Identifier: Apache-2.0
// Escape From Blindness in a browser: a client of the engine's NDJSON protocol (version 1.3) over a
// WebSocket, for players of screen readers (NVDA, JAWS, VoiceOver, Orca) and their sighted companions.
//
// What a screen reader hears after each command is only what changed, once:
// - a new screen moves the focus to its heading (or to the element the engine focused), so that is read;
// - announcements go to one of two live regions that exist, empty, from the start (polite, assertive),
//   cleared and then filled on the next tick so the same text twice is read twice;
// - the player's own typed text (category "echo") is never read back, and a control that keeps the
//   focus is updated in place, never re-created, so it is not announced again.
"use strict";

(function () {
  const WORDS = {
    en: {
      connecting: "Connecting to the game…",
      lost: "The connection to the game was lost. Reconnecting…",
      back: "Reconnected. You are back where you were.",
      reconnected: "Reconnected.",
      notSent: "The game is reconnecting: that key was not sent.",
      ended: "The game has ended. You can close this page.",
      refused: "This page cannot reach the game: open the address that efb web printed.",
      controls: "Game controls",
      hint: "Hint",
      menu: "Level menu",
      repeat: "Repeat",
      history: "History",
      historyTitle: "What was said",
      sound: "Sound",
      theme: "Colours",
      themeSystem: "As the system",
      themeLight: "Light",
      themeDark: "Dark",
      themeContrast: "High contrast",
      submit: "Submit",
      timeLeft: "Time left",
      paused: "paused",
      up: "up",
      down: "down",
      rotorNow: "change rotor, now",
      nextItem: "next item",
      previousItem: "previous item",
      solved: (done, total) => `${done} of ${total} levels solved`,
      choiceTitle: "This game is open in another tab",
      choiceText: "Only one tab plays at a time. Take over the game here, or watch it being played.",
      takeOver: "Take over here",
      watch: "Watch",
      watching: "You are watching: another tab plays now. To play here, use Take over here.",
      watchingFree: "You are watching; nobody plays now. To play here, use Take over here.",
      takenOver: "Another tab took over the game. You are now watching.",
      tookOver: "You play now: the game is yours in this tab.",
      readOnly: "You are watching: take over to play.",
      keysTitle: "Keys",
      keys: [
        ["Tab, Shift+Tab", "Move between the game's controls"],
        ["Enter, Space", "Activate a button"],
        ["Up and Down arrows", "Turn a dial that has the focus"],
        ["Home, End", "Turn the dial to its first or last value"],
        ["Escape", "Escape: back out (the level menu on a level)"],
        ["Control+Alt+M", "Magic tap: the screen's main action"],
        ["Control+Alt+H", "Hear a hint"],
        ["Control+Alt+L", "Open the level menu"],
        ["Control+Alt+R", "Repeat the last announcement"],
        ["Control+Alt+T", "Hear the time left on a timed level"],
        ["Control+Alt+Y", "Show the history of what was said, and go to it; again to close it"],
        ["Control+Alt+S", "Sound on or off"],
      ],
      keysNote: "These keys work with a screen reader in browse mode and in focus mode: Orca leaves Control+Alt with a letter to the page.",
      soundOn: "Sound on.",
      soundOff: "Sound off.",
      noTimer: "This room has no time limit.",
    },
    fr: {
      connecting: "Connexion au jeu…",
      lost: "La connexion au jeu est perdue. Reconnexion…",
      back: "Reconnecté. Tu es de retour là où tu étais.",
      reconnected: "Reconnecté.",
      notSent: "Le jeu se reconnecte : cette touche n’a pas été envoyée.",
      ended: "La partie est terminée. Tu peux fermer cette page.",
      refused: "Cette page n’atteint pas le jeu : ouvre l’adresse qu’efb web a affichée.",
      controls: "Commandes du jeu",
      hint: "Indice",
      menu: "Menu des niveaux",
      repeat: "Répéter",
      history: "Historique",
      historyTitle: "Ce qui a été dit",
      sound: "Son",
      theme: "Couleurs",
      themeSystem: "Comme le système",
      themeLight: "Clair",
      themeDark: "Sombre",
      themeContrast: "Contraste élevé",
      submit: "Valider",
      timeLeft: "Temps restant",
      paused: "en pause",
      up: "vers le haut",
      down: "vers le bas",
      rotorNow: "changer de rotor, actuel :",
      nextItem: "élément suivant",
      previousItem: "élément précédent",
      solved: (done, total) => `${done} niveaux résolus sur ${total}`,
      choiceTitle: "Cette partie est ouverte dans un autre onglet",
      choiceText: "Un seul onglet joue à la fois. Prends la main ici, ou regarde la partie.",
      takeOver: "Prendre la main ici",
      watch: "Regarder",
      watching: "Tu regardes : un autre onglet joue en ce moment. Pour jouer ici, utilise « Prendre la main ici ».",
      watchingFree: "Tu regardes ; personne ne joue en ce moment. Pour jouer ici, utilise « Prendre la main ici ».",
      takenOver: "Un autre onglet a pris la main. Tu regardes maintenant la partie.",
      tookOver: "Tu joues maintenant : la partie est à toi dans cet onglet.",
      readOnly: "Tu regardes : prends la main pour jouer.",
      keysTitle: "Touches",
      keys: [
        ["Tab, Maj+Tab", "Passer d’une commande du jeu à l’autre"],
        ["Entrée, Espace", "Activer un bouton"],
        ["Flèches haut et bas", "Tourner la roue qui a le focus"],
        ["Origine, Fin", "Tourner la roue jusqu’à sa première ou sa dernière valeur"],
        ["Échap", "Échappement : revenir en arrière (le menu des niveaux sur un niveau)"],
        ["Ctrl+Alt+M", "Toucher magique : l’action principale de l’écran"],
        ["Ctrl+Alt+H", "Entendre un indice"],
        ["Ctrl+Alt+L", "Ouvrir le menu des niveaux"],
        ["Ctrl+Alt+R", "Répéter la dernière annonce"],
        ["Ctrl+Alt+T", "Entendre le temps qui reste sur un niveau chronométré"],
        ["Ctrl+Alt+Y", "Afficher l’historique de ce qui a été dit, et y aller ; de nouveau pour le fermer"],
        ["Ctrl+Alt+S", "Son activé ou coupé"],
      ],
      keysNote: "Ces touches marchent avec un lecteur d’écran en mode navigation comme en mode formulaire : Orca laisse Ctrl+Alt avec une lettre à la page.",
      soundOn: "Son activé.",
      soundOff: "Son coupé.",
      noTimer: "Cette salle n’a pas de limite de temps.",
    },
  };

  // French spacing, as the engine's French texts have it: a no-break space before ":" and inside « »,
  // a narrow one before ";", "?" and "!", so no line of the page starts with them.
  const frenchSpaced = (value) => {
    if (typeof value === "string") {
      return value.replace(/ ([:»])/g, "\u00a0$1").replace(/« /g, "«\u00a0").replace(/ ([;?!])/g, "\u202f$1");
    }
    if (typeof value === "function") return (...args) => frenchSpaced(value(...args));
    if (Array.isArray(value)) return value.map(frenchSpaced);
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, frenchSpaced(item)]));
  };
  WORDS.fr = frenchSpaced(WORDS.fr);

  const $ = (id) => document.getElementById(id);
  const state = {
    words: WORDS[document.documentElement.lang.startsWith("fr") ? "fr" : "en"],
    socket: null,
    role: null,
    screen: null,
    focusId: null,
    nextId: 1,
    ended: false,
    connectedOnce: false,
    lostSaid: false,
    retry: 250,
    timer: null,
    rotors: {},
    sound: localStorage.getItem("efb-sound") !== "off",
    audio: null,
    buffers: {},
    ambience: null,
    ambienceName: null,
    // The banner's "Take over here" was used: its answer (the role) moves the focus and says so.
    takingOver: false,
  };
  const client = sessionStorage.getItem("efb-client") || Math.random().toString(36).slice(2, 12);
  sessionStorage.setItem("efb-client", client);

  // MARK: speaking

  let pendingSpeech = null;
  function say(text, priority) {
    if (!text) return;
    addHistory(text);
    const message = $("message");
    message.textContent = text;
    const region = $(priority === "assertive" ? "assertive" : "polite");
    const other = $(priority === "assertive" ? "polite" : "assertive");
    region.textContent = "";
    other.textContent = "";
    clearTimeout(pendingSpeech);
    // Set on the next tick: the same text twice in a row is then read twice.
    pendingSpeech = setTimeout(() => {
      region.textContent = text;
    }, 50);
  }

  function carryIntoHeading(title, text) {
    const carried = document.createElement("span");
    carried.className = "visually-hidden";
    carried.textContent = text + " ";
    title.prepend(carried);
    title.addEventListener("blur", () => carried.remove(), { once: true });
  }

  // Shown in the message line and kept in the history, not spoken (the focus move speaks it).
  function show(text, wrong) {
    addHistory(text);
    $("message").textContent = text;
    $("message").classList.toggle("wrong", wrong);
  }

  function addHistory(text) {
    const list = $("history");
    const item = document.createElement("li");
    item.textContent = text;
    // Newest first: "what did I miss" starts with what was said last.
    list.prepend(item);
    while (list.children.length > 300) list.removeChild(list.lastChild);
  }

  // MARK: words of the page

  function applyWords() {
    const w = state.words;
    $("controls").setAttribute("aria-label", w.controls);
    $("hint").textContent = w.hint;
    $("menu").textContent = w.menu;
    $("repeat").textContent = w.repeat;
    $("history-button").textContent = w.history;
    $("history-title").textContent = w.historyTitle;
    $("sound").textContent = w.sound;
    $("theme-title").textContent = w.theme;
    $("theme-label").textContent = w.theme + " ";
    $("theme-system").textContent = w.themeSystem;
    $("theme-light").textContent = w.themeLight;
    $("theme-dark").textContent = w.themeDark;
    $("theme-contrast").textContent = w.themeContrast;
    $("take-over").textContent = w.takeOver;
    $("keys-title").textContent = w.keysTitle;
    $("keys-note").textContent = w.keysNote;
    const keys = $("keys");
    keys.textContent = "";
    for (const [key, meaning] of w.keys) {
      const term = document.createElement("dt");
      term.textContent = key;
      const description = document.createElement("dd");
      description.textContent = meaning;
      keys.append(term, description);
    }
  }

  function setLocale(locale) {
    const language = (locale || "en").split(/[-_]/)[0];
    document.documentElement.lang = language;
    state.words = WORDS[language === "fr" ? "fr" : "en"];
    applyWords();
  }

  // MARK: the connection

  function connect() {
    const socket = new WebSocket(`ws://${location.host}/ws?client=${encodeURIComponent(client)}`);
    state.socket = socket;
    socket.onopen = () => {
      state.retry = 250;
    };
    socket.onmessage = (message) => {
      const events = String(message.data)
        .split("\n")
        .filter((line) => line.trim() !== "")
        .map((line) => JSON.parse(line));
      handle(events);
    };
    socket.onclose = () => {
      if (state.socket !== socket) return;
      state.socket = null;
      if (state.ended) return;
      if (!state.lostSaid && state.connectedOnce) {
        state.lostSaid = true;
        say(state.words.lost, "polite");
      }
      setTimeout(connect, state.retry);
      state.retry = Math.min(state.retry * 2, 3000);
    };
  }

  function send(command) {
    // A key while the WebSocket is closed is not kept for later (the game may have moved on): say so.
    if (!state.socket || state.socket.readyState !== WebSocket.OPEN) {
      say(state.ended ? state.words.ended : state.words.notSent, "assertive");
      return;
    }
    if (state.role !== "controller") {
      if (state.role === "observer") say(state.words.readOnly, "polite");
      return;
    }
    command.id = state.nextId++;
    state.socket.send(JSON.stringify(command));
  }

  function sendWeb(type) {
    if (state.socket && state.socket.readyState === WebSocket.OPEN) state.socket.send(JSON.stringify({ type }));
  }

  // MARK: events

  function handle(events) {
    let screen = null;
    let focus = null;
    const changed = [];
    const rotated = new Set();
    const speech = [];
    let wrong = false;
    for (const event of events) {
      switch (event.type) {
        case "hello":
          setLocale(event.locale);
          if (event.adventure) {
            $("brand").textContent = event.adventure.title;
            document.title = event.adventure.title;
          }
          break;
        case "web.role":
          roleChanged(event);
          break;
        case "web.ended":
          gameEnded();
          break;
        case "screen":
          screen = event;
          focus = null;
          changed.length = 0;
          state.rotors = {};
          break;
        case "focus":
          focus = event;
          state.focusId = event.element.id;
          break;
        case "elementChanged":
          changed.push(event.element);
          break;
        case "rotor":
          state.rotors[event.element] = event;
          rotated.add(event.element);
          break;
        case "announce":
          // The time left is a notice, polite, even the last seconds: it must not cut off the room.
          if (event.category === "time") speech.push({ text: event.text, priority: "polite" });
          else if (event.category !== "echo") speech.push(event);
          break;
        case "result":
          if (event.outcome !== "correct") wrong = true;
          break;
        case "error":
          if (event.code !== "stale") speech.push({ text: event.message, priority: "polite" });
          break;
        case "sound":
          playSound(event);
          break;
        case "progress":
          $("progress").textContent = state.words.solved(event.completed.length, event.total);
          break;
        case "timer":
          setTimer(event);
          break;
        case "bye":
          // The server is stopping: the page waits for it to come back (see connect).
          setTimer(null);
          stopAmbience();
          break;
        default:
          break;
      }
    }
    const wasScreen = state.screen && state.screen.screen;
    let moved = false;
    if (screen) {
      const reconnecting = state.lostSaid;
      const sameScreen = wasScreen === screen.screen;
      const keep = sameScreen ? document.activeElement && document.activeElement.dataset.element : null;
      if (!sameScreen && !timerBelongsTo(events)) setTimer(null);
      state.screen = screen;
      renderScreen(screen);
      addHistory(screen.title);
      if (reconnecting && sameScreen) {
        // Back after the server restarted: the same place, focus kept where it was if it is still there.
        state.lostSaid = false;
        const target = (keep && findControl(keep)) || findControl(focus ? focus.element.id : "title");
        if (target) target.focus();
        speech.unshift({ text: state.words.back, priority: "polite" });
      } else if (reconnecting) {
        // Back on another screen (the introduction's page is not saved: a restart starts it again): a
        // new screen, its heading read as any new one's, then a short polite word, never "back where
        // you were".
        state.lostSaid = false;
        focusElement(focus ? focus.element.id : "title");
        moved = true;
        speech.push({ text: state.words.reconnected, priority: "polite" });
      } else {
        focusElement(focus ? focus.element.id : "title");
        moved = true;
      }
      retireOldScreens();
      state.connectedOnce = true;
    } else {
      for (const element of changed) updateElement(element);
      if (focus && !controlHasFocus(focus.element.id)) {
        focusElement(focus.element.id);
        moved = true;
      }
    }
    // A rotor turned (with no elementChanged): its button says the rotor now chosen.
    for (const id of rotated) {
      const rotor = $("screen").querySelector(`[data-rotor-of="${CSS.escape(id)}"]`);
      const element = state.screen && state.screen.elements.find((item) => item.id === id);
      if (rotor && element) updateRotorButton(element, rotor);
    }
    // A value the focused control shows changed in place: the screen reader reads it, so it is not said too.
    const focusedValue = changed.find((element) => controlHasFocus(element.id) && element.traits.includes("adjustable"));
    const spoken = speech.filter((item) => !(focusedValue && item.text === focusedValue.value));
    if (spoken.length > 0) {
      // After a focus move the new focus is read first: what is said then waits its turn (polite).
      const assertive = !moved && spoken.some((item) => item.priority === "assertive");
      say(spoken.map((item) => item.text).join(" "), assertive ? "assertive" : "polite");
      $("message").classList.toggle("wrong", wrong);
    }
  }

  function timerBelongsTo(events) {
    return events.some((event) => event.type === "timer");
  }

  function roleChanged(event) {
    const w = state.words;
    state.role = event.role;
    const banner = $("banner");
    if (event.role === "choice") {
      banner.hidden = true;
      renderChoice();
      return;
    }
    if (event.role === "observer") {
      banner.hidden = false;
      $("banner-text").textContent = event.controlFree ? w.watchingFree : w.watching;
      if (event.reason === "takenOver") say(w.takenOver, "assertive");
    } else {
      // The focus leaves the banner before it is hidden (a hidden focused button leaves the focus
      // nowhere, and Orca silent): to the screen's heading, which the screen reader then reads. Only
      // from the banner: at the page's load the first screen's own heading takes the focus.
      if (banner.contains(document.activeElement)) {
        const title = $("screen-title");
        if (title) title.focus();
      }
      banner.hidden = true;
      if (event.role === "controller" && state.takingOver) say(w.tookOver, "polite");
    }
    state.takingOver = false;
  }

  function gameEnded() {
    if (state.ended) return;
    state.ended = true;
    setTimer(null);
    stopAmbience();
    say(state.words.ended, "polite");
    if (state.socket) state.socket.close();
  }

  // MARK: rendering

  function renderChoice() {
    const w = state.words;
    const section = newScreen();
    const title = heading(1, w.choiceTitle);
    title.id = "screen-title";
    const text = document.createElement("p");
    text.textContent = w.choiceText;
    const take = button(w.takeOver, () => sendWeb("web.takeOver"));
    take.className = "primary";
    const watch = button(w.watch, () => sendWeb("web.watch"));
    section.append(title, text, take, watch);
    placeGestureButtons(null, section);
    title.focus();
    retireOldScreens();
  }

  // A new screen is put in beside the old one, its heading (or control) takes the focus, and only then
  // are the old screen's controls removed. Removing the focused control first makes Orca move its focus
  // to the new heading by itself and then take the real focus event as "already there": it says nothing.
  // The old screen is moved out of sight meanwhile (still in the accessibility tree: hiding it is removing it).
  function newScreen() {
    const old = $("screen");
    const section = document.createElement("section");
    section.className = "screen";
    section.setAttribute("aria-labelledby", "screen-title");
    old.removeAttribute("id");
    old.removeAttribute("aria-labelledby");
    for (const node of old.querySelectorAll("[id]")) node.removeAttribute("id");
    old.classList.add("leaving");
    section.id = "screen";
    old.after(section);
    return section;
  }

  function retireOldScreens() {
    const leaving = Array.from(document.querySelectorAll("section.screen.leaving"));
    if (leaving.length === 0) return;
    setTimeout(() => {
      for (const node of leaving) node.remove();
    }, 300);
  }

  function heading(level, text) {
    const node = document.createElement("h" + level);
    node.textContent = text;
    node.tabIndex = -1;
    return node;
  }

  function button(text, action) {
    const node = document.createElement("button");
    node.type = "button";
    node.textContent = text;
    node.addEventListener("click", action);
    return node;
  }

  function renderScreen(screen) {
    const section = newScreen();
    // The last room's outcome does not stay on the next screen.
    $("message").textContent = "";
    $("message").classList.remove("wrong");
    section.dataset.kind = screen.kind;
    let titled = false;
    for (const element of screen.elements) {
      const node = renderElement(element, !titled && element.traits.includes("header"));
      if (!titled && element.traits.includes("header")) {
        titled = true;
        node.id = "screen-title";
      }
      section.appendChild(node);
    }
    if (!titled) {
      const title = heading(1, screen.title);
      title.id = "screen-title";
      section.prepend(title);
    }
    placeGestureButtons(screen, section);
  }

  // One control per action in the Tab order: the magic tap's and escape's buttons after the screen
  // are shown only when no other control does the same (the screen's Continue, Begin, Try, Back or
  // Play again, or the Hint and Level menu buttons); the control kept then names their key too.
  const BASE_SHORTCUTS = { hint: "Control+Alt+H", menu: "Control+Alt+L" };
  function placeGestureButtons(screen, section) {
    for (const [id, keys] of Object.entries(BASE_SHORTCUTS)) $(id).setAttribute("aria-keyshortcuts", keys);
    for (const [id, gesture, key] of [["magic-tap", "magicTap", "Control+Alt+M"], ["escape", "escape", "Escape"]]) {
      const node = $(id);
      const what = screen && screen[gesture];
      if (!what) {
        node.hidden = true;
        continue;
      }
      const same = what.action in BASE_SHORTCUTS
        ? $(what.action)
        : section.querySelector(`button[data-element="${CSS.escape(what.action)}"]`);
      node.hidden = !!same;
      node.textContent = what.label;
      if (same) same.setAttribute("aria-keyshortcuts", [same.getAttribute("aria-keyshortcuts"), key].filter(Boolean).join(" "));
    }
  }

  function labelled(text, value) {
    return value ? `${text}, ${value}` : text;
  }

  function renderElement(element, isTitle) {
    const traits = element.traits;
    const id = element.id;
    let node;
    if (traits.includes("header")) {
      node = heading(isTitle ? 1 : 2, labelled(element.label, element.value));
      node.dataset.element = id;
      return node;
    }
    if (traits.includes("textField")) return renderField(element);
    if (traits.includes("adjustable")) return renderDial(element);
    if (traits.includes("button")) {
      const control = button(labelled(element.label, element.value), () => send({ type: "activate", element: id }));
      control.dataset.element = id;
      decorate(control, element);
      if (element.rotors && element.rotors.length > 0) return renderRotors(element, control);
      if (element.actions && element.actions.length > 0) return renderActions(element, control);
      const wrapper = document.createElement("div");
      wrapper.className = "element";
      wrapper.appendChild(control);
      if (["continue", "begin", "resume", "replay", "try"].includes(id)) control.className = "primary";
      return wrapper;
    }
    node = document.createElement("p");
    node.textContent = labelled(element.label, element.value);
    node.tabIndex = -1;
    node.dataset.element = id;
    return node;
  }

  function decorate(control, element) {
    if (element.traits.includes("notEnabled")) control.setAttribute("aria-disabled", "true");
    else control.removeAttribute("aria-disabled");
    if (element.traits.includes("selected")) control.setAttribute("aria-current", "true");
    else control.removeAttribute("aria-current");
  }

  function renderField(element) {
    const form = document.createElement("form");
    form.className = "answer element";
    const label = document.createElement("label");
    label.htmlFor = "field-" + element.id;
    label.textContent = element.label;
    const input = document.createElement("input");
    input.type = "text";
    input.id = "field-" + element.id;
    input.autocomplete = "off";
    input.spellcheck = false;
    input.maxLength = 1000;
    input.value = element.value || "";
    input.dataset.element = element.id;
    const submit = document.createElement("button");
    submit.type = "submit";
    submit.textContent = state.words.submit;
    form.append(label, input, submit);
    form.addEventListener("submit", (event) => {
      event.preventDefault();
      send({ type: "input", element: element.id, text: input.value });
      send({ type: "activate", element: element.id });
    });
    return form;
  }

  function renderDial(element) {
    const wrapper = document.createElement("div");
    wrapper.className = "dial element";
    const label = document.createElement("span");
    label.id = "label-" + element.id;
    label.textContent = element.label;
    const dial = document.createElement("div");
    dial.setAttribute("role", "spinbutton");
    dial.tabIndex = 0;
    dial.setAttribute("aria-labelledby", label.id);
    showDial(dial, element);
    dial.dataset.element = element.id;
    dial.addEventListener("keydown", (event) => {
      if (event.altKey || event.ctrlKey || event.metaKey) return;
      // Home and End: the dial's first and last values (protocol 1.3's adjust "first" and "last").
      const direction = { ArrowUp: "increment", ArrowRight: "increment", PageUp: "increment", ArrowDown: "decrement", ArrowLeft: "decrement", PageDown: "decrement", Home: "first", End: "last" }[event.key];
      if (!direction) return;
      event.preventDefault();
      send({ type: "adjust", element: element.id, direction });
    });
    // For a mouse or a touch screen; the keyboard turns the dial itself.
    const up = button("+", () => send({ type: "adjust", element: element.id, direction: "increment" }));
    const down = button("−", () => send({ type: "adjust", element: element.id, direction: "decrement" }));
    for (const [control, word] of [[up, state.words.up], [down, state.words.down]]) {
      control.tabIndex = -1;
      control.setAttribute("aria-label", `${element.label}: ${word}`);
      control.setAttribute("aria-hidden", "true");
    }
    wrapper.append(label, down, dial, up);
    return wrapper;
  }

  // A dial's value: its word (aria-valuetext, what a screen reader says) and, from protocol 1.3's
  // range, its place among the wheel's values, 1 to their count (aria-valuenow, -valuemin, -valuemax).
  function showDial(dial, element) {
    if (element.range) {
      dial.setAttribute("aria-valuemin", "1");
      dial.setAttribute("aria-valuemax", String(element.range.count));
      dial.setAttribute("aria-valuenow", String(element.range.position));
    } else {
      for (const name of ["aria-valuemin", "aria-valuemax", "aria-valuenow"]) dial.removeAttribute(name);
    }
    dial.setAttribute("aria-valuetext", element.value || "");
    dial.textContent = element.value || "";
  }

  function renderRotors(element, control) {
    const group = document.createElement("div");
    group.className = "group";
    group.setAttribute("role", "group");
    group.setAttribute("aria-label", element.label);
    group.appendChild(control);
    const id = element.id;
    const rotor = button("", () => send({ type: "rotor", element: id, direction: "next" }));
    rotor.dataset.rotorOf = id;
    const next = button(`${element.label}: ${state.words.nextItem}`, () => send({ type: "rotorItem", element: id, direction: "next" }));
    const previous = button(`${element.label}: ${state.words.previousItem}`, () => send({ type: "rotorItem", element: id, direction: "previous" }));
    group.append(rotor, next, previous);
    updateRotorButton(element, rotor);
    control.addEventListener("keydown", (event) => {
      if (event.altKey || event.ctrlKey || event.metaKey) return;
      const direction = { ArrowDown: "next", ArrowUp: "previous" }[event.key];
      if (!direction) return;
      event.preventDefault();
      send({ type: "rotorItem", element: id, direction });
    });
    return group;
  }

  function updateRotorButton(element, rotor) {
    const current = state.rotors[element.id];
    const name = current ? current.rotor : element.rotors[0];
    rotor.textContent = `${element.label}: ${state.words.rotorNow} ${name}`;
  }

  function renderActions(element, control) {
    const group = document.createElement("div");
    group.className = "group";
    group.setAttribute("role", "group");
    group.setAttribute("aria-label", element.label);
    group.appendChild(control);
    for (const action of element.actions) {
      group.appendChild(button(`${element.label}: ${action}`, () => send({ type: "action", element: element.id, name: action })));
    }
    return group;
  }

  function findControl(id) {
    if (id === "title") return $("screen-title");
    return $("screen").querySelector(`[data-element="${CSS.escape(id)}"]`);
  }

  function controlHasFocus(id) {
    const active = document.activeElement;
    if (!active || !$("screen").contains(active)) return false;
    if (active.dataset.element === id) return true;
    // A rotor's or an object's own buttons belong to it.
    const group = active.closest(".group, form.answer, .dial");
    return !!(group && group.querySelector(`[data-element="${CSS.escape(id)}"]`));
  }

  function focusElement(id) {
    const target = findControl(id) || $("screen-title");
    if (target) target.focus();
  }

  function updateElement(element) {
    const node = findControl(element.id);
    if (state.screen) {
      const index = state.screen.elements.findIndex((item) => item.id === element.id);
      if (index >= 0) state.screen.elements[index] = element;
    }
    if (!node) return;
    const text = labelled(element.label, element.value);
    if (node.getAttribute("role") === "spinbutton") {
      showDial(node, element);
    } else if (node.tagName === "INPUT") {
      if (node.value !== (element.value || "")) node.value = element.value || "";
    } else if (node.textContent !== text) {
      node.textContent = text;
    }
    if (node.tagName === "BUTTON") decorate(node, element);
    const rotor = $("screen").querySelector(`[data-rotor-of="${CSS.escape(element.id)}"]`);
    if (rotor) updateRotorButton(element, rotor);
  }

  // MARK: the timed level's clock

  function setTimer(event) {
    const node = $("timer");
    clearInterval(state.timerTick);
    if (!event) {
      state.timer = null;
      node.hidden = true;
      return;
    }
    state.timer = { remaining: event.remainingMs, paused: event.paused, at: performance.now() };
    const show = () => {
      const t = state.timer;
      if (!t) return;
      const left = Math.max(0, t.paused ? t.remaining : t.remaining - (performance.now() - t.at));
      const seconds = Math.ceil(left / 1000);
      const text = `${state.words.timeLeft}: ${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, "0")}`;
      node.textContent = t.paused ? `${text} (${state.words.paused})` : text;
    };
    node.hidden = false;
    node.setAttribute("aria-label", state.words.timeLeft);
    show();
    // Shown every second for the eyes; role=timer is not live: the engine says the time at its moments.
    if (!event.paused) state.timerTick = setInterval(show, 1000);
  }

  // MARK: sound (Web Audio)

  function audio() {
    if (!state.audio) {
      const Context = window.AudioContext || window.webkitAudioContext;
      if (!Context) return null;
      state.audio = new Context();
    }
    if (state.audio.state === "suspended") state.audio.resume();
    return state.audio;
  }

  async function buffer(path) {
    if (state.buffers[path]) return state.buffers[path];
    const context = audio();
    if (!context) return null;
    const response = await fetch(path);
    if (!response.ok) return null;
    const decoded = await context.decodeAudioData(await response.arrayBuffer());
    state.buffers[path] = decoded;
    return decoded;
  }

  async function playSound(event) {
    if (event.name === "ambient") {
      state.ambienceName = event.loop || null;
      if (state.sound) startAmbience();
      return;
    }
    if (!state.sound || !/^[a-z0-9-]+$/.test(event.name)) return;
    try {
      const data = await buffer(`sounds/cues/${event.name}.wav`);
      if (!data || !state.sound) return;
      const source = state.audio.createBufferSource();
      source.buffer = data;
      source.connect(state.audio.destination);
      source.start();
    } catch (error) {
      // A sound that cannot play is left out: the game goes on.
    }
  }

  async function startAmbience() {
    stopAmbience();
    const name = state.ambienceName;
    if (!name || !/^[a-z0-9-]+$/.test(name)) return;
    try {
      const data = await buffer(`sounds/ambiences/${name}.wav`);
      if (!data || !state.sound || state.ambienceName !== name) return;
      const gain = state.audio.createGain();
      gain.gain.value = 0.35;
      gain.connect(state.audio.destination);
      const source = state.audio.createBufferSource();
      source.buffer = data;
      source.loop = true;
      source.connect(gain);
      source.start();
      state.ambience = source;
    } catch (error) {
      // Left out, as a cue.
    }
  }

  function stopAmbience() {
    if (state.ambience) {
      try {
        state.ambience.stop();
      } catch (error) {
        // Already stopped.
      }
      state.ambience = null;
    }
  }

  function setSound(on, spoken) {
    state.sound = on;
    if (spoken) say(on ? state.words.soundOn : state.words.soundOff, "polite");
    localStorage.setItem("efb-sound", on ? "on" : "off");
    $("sound").setAttribute("aria-pressed", on ? "true" : "false");
    if (on) startAmbience();
    else stopAmbience();
  }

  // MARK: keys and controls

  // Opening the history goes to it; closing it comes back to where the player was (or to the history
  // button, or the screen's heading), never to nothing.
  let beforeHistory = null;
  function toggleHistory(show) {
    const section = $("history-section");
    if (show) beforeHistory = document.activeElement;
    const focusWasInside = section.contains(document.activeElement);
    section.hidden = !show;
    $("history-button").setAttribute("aria-expanded", show ? "true" : "false");
    if (show) {
      $("history-title").focus();
    } else if (focusWasInside || document.activeElement === document.body) {
      const back = beforeHistory && beforeHistory.isConnected && beforeHistory !== document.body ? beforeHistory : null;
      (back || $("history-button")).focus();
    }
  }

  function sayTime() {
    const t = state.timer;
    if (!t) {
      say(state.words.noTimer, "polite");
      return;
    }
    say($("timer").textContent, "polite");
  }

  function setTheme(theme) {
    if (theme === "system") document.documentElement.removeAttribute("data-theme");
    else document.documentElement.dataset.theme = theme;
    localStorage.setItem("efb-theme", theme);
    // Set by script only when it differs: a select changed at start-up can pull Orca into it (focus mode).
    if ($("theme").value !== theme) $("theme").value = theme;
  }

  function onKey(event) {
    if (event.key === "Escape" && !event.altKey && !event.ctrlKey && !event.metaKey && !event.shiftKey) {
      // Escape in an answer field that holds text leaves the text (and the room) alone.
      if (event.target.tagName === "INPUT" && event.target.value !== "") return;
      if (state.screen && state.screen.escape && state.role === "controller") {
        event.preventDefault();
        send({ type: "escape" });
      }
      return;
    }
    // Control+Alt with a letter: screen readers leave it to the page in browse mode (Orca takes
    // Alt+Shift+letter there for its lists, and single letters and Shift+letter for its navigation).
    // A key that types a character with AltGr (Control+Alt on some systems: ł, €) is left to the field.
    if (!(event.ctrlKey && event.altKey) || event.shiftKey || event.metaKey) return;
    if (event.key.length === 1 && event.key.toLowerCase() !== event.code.slice(3).toLowerCase()) return;
    const actions = {
      KeyM: () => send({ type: "magicTap" }),
      KeyH: () => send({ type: "hint" }),
      KeyL: () => send({ type: "menu" }),
      KeyR: () => send({ type: "repeat" }),
      KeyT: () => sayTime(),
      KeyY: () => toggleHistory($("history-section").hidden),
      KeyS: () => setSound(!state.sound, true),
    };
    const action = actions[event.code];
    if (!action) return;
    event.preventDefault();
    action();
  }

  function start() {
    applyWords();
    setTheme(localStorage.getItem("efb-theme") || "system");
    setSound(state.sound);
    $("screen-status").textContent = state.words.connecting;
    $("magic-tap").addEventListener("click", () => send({ type: "magicTap" }));
    $("escape").addEventListener("click", () => send({ type: "escape" }));
    $("hint").addEventListener("click", () => send({ type: "hint" }));
    $("menu").addEventListener("click", () => send({ type: "menu" }));
    $("repeat").addEventListener("click", () => send({ type: "repeat" }));
    $("history-button").addEventListener("click", () => toggleHistory($("history-section").hidden));
    $("sound").addEventListener("click", () => setSound(!state.sound, true));
    $("theme").addEventListener("change", (event) => setTheme(event.target.value));
    $("take-over").addEventListener("click", () => {
      state.takingOver = true;
      sendWeb("web.takeOver");
    });
    document.addEventListener("keydown", onKey);
    // The browser lets sound start only after a gesture of the player's.
    document.addEventListener("keydown", () => audio(), { once: true });
    document.addEventListener("pointerdown", () => audio(), { once: true });
    // The token stays in the cookie; the address bar need not show it.
    if (location.search.includes("token=")) history.replaceState(null, "", location.pathname);
    connect();
  }

  start();
})();
