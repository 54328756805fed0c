// The browser page of mmaref (docs/web.md): the C model compiled to WebAssembly (web/glue.c), called
// through a minimal WASI shim.  ?preset=N opens with preset N computed; ?selftest runs every preset and
// an invalid operand, writing the results into #selftest for tests/t_web.sh (headless Chromium): each
// preset's D, its "every architecture" rows, its lesson and where its key step lies on the page.
const $ = (id) => document.getElementById(id);

async function loadModel() {
  let memory = null;
  // the library writes nothing and reads no files: every WASI call but fd_write answers ENOSYS (52)
  const wasi = new Proxy({}, {
    get: (_, name) => (...args) => {
      if (name === 'fd_write') return 0;
      if (name === 'proc_exit') throw new Error(`mmaref.wasm exited (${args[0]})`);
      return 52;
    },
  });
  const response = await fetch('mmaref.wasm');
  if (!response.ok) throw new Error(`mmaref.wasm: HTTP ${response.status}`);
  const { instance } = await WebAssembly.instantiate(await response.arrayBuffer(), { wasi_snapshot_preview1: wasi });
  const x = instance.exports;
  memory = x.memory;
  if (x._initialize) x._initialize();
  const enc = new TextEncoder(), dec = new TextDecoder();
  const cstr = (s) => {
    const bytes = enc.encode(s + '\0');
    const p = x.web_alloc(bytes.length);
    new Uint8Array(memory.buffer, p, bytes.length).set(bytes);
    return p;
  };
  const read = (p) => {
    const m = new Uint8Array(memory.buffer);
    let e = p;
    while (m[e]) e++;
    return dec.decode(m.subarray(p, e));
  };
  return {
    list: () => JSON.parse(read(x.web_list())),
    explain: (arch, instr, a, b, c, sa, sb) => {
      const args = [arch, instr, a, b, c, sa, sb].map(cstr);
      try {
        return JSON.parse(read(x.web_explain(...args)));
      } finally {
        args.forEach((p) => x.web_free(p));
      }
    },
  };
}

const formatsOf = (i) => `${i.a}/${i.b}/${i.c}/${i.d}${i.block ? `/${i.scale}×${i.block}` : ''}`;

function escapeHtml(s) {
  return s.replace(/[&<>"]/g, (ch) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' }[ch]));
}

// a trace line with what the step keeps and drops highlighted
function markup(text) {
  return escapeHtml(text)
    .replace(/kept ([-+][01.]+)/, 'kept <span class="kept">$1</span>')
    .replace(/dropped: ([01]+)/, 'dropped: <span class="dropped">$1</span>');
}

function main(model) {
  const all = model.list();
  const arches = [...new Set(all.map((i) => i.arch))];
  const byKey = (arch, name) => all.find((i) => i.arch === arch && i.name === name);
  arches.forEach((a) => $('arch').add(new Option(a, a)));

  function fillInstructions(arch, pick) {
    $('instr').length = 0;
    all.filter((i) => i.arch === arch).forEach((i) => $('instr').add(new Option(i.name, i.name)));
    if (pick) $('instr').value = pick;
    describe();
  }
  function describe() {
    const i = byKey($('arch').value, $('instr').value);
    if (!i) return;
    $('formats').textContent = `K = ${i.k}; A ${i.a}, B ${i.b}, C ${i.c}, D ${i.d}` +
      (i.block ? `; block scales ${i.scale} every ${i.block}` : '') + (i.sass ? `; SASS ${i.sass}` : '');
    document.querySelectorAll('.scales').forEach((e) => { e.hidden = !i.block; });
  }

  function compute(arch, instr, ops) {
    return model.explain(arch, instr, ops.a, ops.b, ops.c, ops.sa || '', ops.sb || '');
  }

  // the trace table: lanes that contribute nothing folded into one row per step (the glue's "fold",
  // web/glue.c, as `mmaref explain` folds them) unless "all lanes" is ticked; `key` ({pass, step, what}):
  // the row the preset is about, highlighted and repeated under D
  function showTrace(r, key) {
    const tb = $('trace').tBodies[0];
    tb.innerHTML = '';
    const all = $('alllanes').checked;
    let keyLine = null;
    for (const s of r.trace) {
      if (!all && s.fold === 2) continue;
      const folded = !all && s.fold === 1;
      const tr = tb.insertRow();
      const isKey = key && !folded && s.step === key.step && s.what === key.what && (key.pass === undefined || s.pass === key.pass);
      if (isKey) { tr.className = 'key'; keyLine = s; }
      if (folded) tr.className = 'folded';
      tr.innerHTML = `<td>${s.pass < 0 ? '' : s.pass}</td><td>${escapeHtml(s.step)}</td>` +
        `<td>${escapeHtml(folded ? s.fold_what : s.what)}</td><td>${folded ? escapeHtml(s.fold_text) : markup(s.text)}</td>`;
    }
    $('keystep').hidden = !keyLine;
    if (keyLine) {
      $('keystep').innerHTML = `<b>Key step</b> (${keyLine.pass < 0 ? '' : `pass ${keyLine.pass}, `}${escapeHtml(keyLine.step)}, ` +
        `${escapeHtml(keyLine.what)}): ${markup(keyLine.text)}`;
    }
    return keyLine;
  }

  let last = null; // the trace shown and its key step, redrawn when "all lanes" changes
  function show(arch, instr, ops, key) {
    $('error').textContent = '';
    const r = compute(arch, instr, ops);
    if (!r.ok) {
      $('result').hidden = true;
      $('error').textContent = `${arch} ${instr}: ${r.error}`;
      return r;
    }
    $('result').hidden = false;
    $('d').textContent = r.d;
    $('value').textContent = `= ${r.value}`;
    $('instrname').textContent = `${r.arch} ${r.name}`;
    last = { r, key };
    r.keyLine = showTrace(r, key);
    // every architecture with an instruction of the same formats: its first one with the same K (this one
    // on its own), else the one whose K is nearest among those that hold the operands given (Volta's
    // K = 4 beside Hopper's K = 8 for four products; never an FP8 K = 16 for 32 products)
    const me = byKey(r.arch, r.name); // the canonical names (an alias may have been given)
    const given = Math.max(...[ops.a, ops.b].map((t) => (t.trim() ? t.split(',').length : 0)));
    const counterpart = (a) => {
      const same = all.filter((j) => j.arch === a && formatsOf(j) === formatsOf(me));
      return same.find((j) => j.k === me.k) ||
        same.filter((j) => j.k >= given).sort((x, y) => Math.abs(x.k - me.k) - Math.abs(y.k - me.k))[0];
    };
    const across = $('across').tBodies[0];
    across.innerHTML = '';
    for (const a of arches) {
      const i = a === me.arch ? me : counterpart(a);
      if (!i) continue;
      const o = compute(a, i.name, ops);
      const tr = across.insertRow();
      if (o.ok && o.d !== r.d) tr.className = 'differs';
      tr.innerHTML = `<td>${a}</td><td>${escapeHtml(i.name)}</td><td>${escapeHtml(i.schedule)}</td>` +
        (o.ok ? `<td>${o.d}</td><td>${escapeHtml(o.value)}</td><td>${o.d !== r.d ? 'differs' : ''}</td>`
              : `<td colspan="3">${escapeHtml(o.error)}</td>`);
    }
    return r;
  }

  const operands = () => ({ a: $('a').value, b: $('b').value, c: $('c').value, sa: $('sa').value, sb: $('sb').value });
  $('arch').addEventListener('change', () => fillInstructions($('arch').value));
  $('instr').addEventListener('change', describe);
  $('alllanes').addEventListener('change', () => { if (last) showTrace(last.r, last.key); });
  $('form').addEventListener('submit', (e) => { e.preventDefault(); show($('arch').value, $('instr').value, operands()); });
  return { show, fillInstructions, operands };
}

async function start() {
  let model;
  try {
    model = await loadModel();
  } catch (e) {
    $('error').textContent = `The model could not be loaded: ${e.message}`;
    return;
  }
  const ui = main(model);
  const presets = await (await fetch('presets.json')).json();
  presets.forEach((p, i) => $('preset').add(new Option(p.name, String(i))));
  const apply = (p) => {
    $('a').value = p.a; $('b').value = p.b; $('c').value = p.c; $('sa').value = ''; $('sb').value = '';
    $('lesson').textContent = p.teaches;
    const r = ui.show(p.arch, p.instr, ui.operands(), p.key);
    if (r.ok) {
      $('arch').value = r.arch;
      ui.fillInstructions(r.arch, r.name);
    }
    return r;
  };
  $('preset').addEventListener('change', () => { if ($('preset').value) apply(presets[+$('preset').value]); });
  if (new URLSearchParams(location.search).has('selftest')) {
    const lines = [];
    presets.forEach((p, n) => {
      const r = apply(p);
      lines.push(`preset|${p.arch}|${p.instr}|${r.ok ? r.d : 'error: ' + r.error}|${p.d}`);
      lines.push(`across|${n}|${[...$('across').tBodies[0].rows].map((row) =>
        `${row.cells[0].textContent}:${row.cells[1].textContent}=${row.cells[3].textContent}`).join(',')}`);
      // the key step's bottom edge on the page, beside the window's height (visible without scrolling)
      const box = $('keystep').getBoundingClientRect();
      lines.push(`key|${n}|${r.keyLine ? `${r.keyLine.step} ${r.keyLine.what}` : 'none'}|` +
        `${$('keystep').hidden ? -1 : Math.ceil(box.bottom + window.scrollY)}|${window.innerWidth}x${window.innerHeight}`);
      lines.push(`lesson|${n}|${$('lesson').textContent}`);
    });
    const bad = ui.show('hopper', 'mma.m16n8k8.f32.f16.f16.f32', { a: '0.1', b: '1', c: '0' });
    lines.push(`invalid|${bad.ok ? 'accepted' : $('error').textContent}`);
    // lane folding: the FP8 preset (one non-zero lane of 32) folded, then with "all lanes"
    const fp8 = presets.find((p) => p.instr.includes('e4m3'));
    const rowsOf = () => [...$('trace').tBodies[0].rows];
    apply({ ...fp8, a: '0x1p-6', b: '0x1p-8' });
    const folded = rowsOf().filter((row) => row.className === 'folded').map((row) => `${row.cells[2].textContent} ${row.cells[3].textContent}`);
    const nFolded = rowsOf().length;
    $('alllanes').checked = true;
    $('alllanes').dispatchEvent(new Event('change'));
    lines.push(`fold|${nFolded}|${rowsOf().length}|${folded.join(';')}`);
    $('alllanes').checked = false;
    $('alllanes').dispatchEvent(new Event('change'));
    $('selftest').textContent = lines.join('\n');
    $('selftest').hidden = false;
  } else if (new URLSearchParams(location.search).has('preset')) { // a link to a preset: ?preset=N
    const p = presets[+new URLSearchParams(location.search).get('preset')];
    if (p) {
      $('preset').value = presets.indexOf(p);
      apply(p);
    }
  } else {
    $('arch').value = 'hopper';
    ui.fillInstructions('hopper', 'mma.m16n8k16.f32.f16.f16.f32');
  }
}

start();
