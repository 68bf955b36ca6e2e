#!/usr/bin/env node
// MuJoCo 3.x reference runner (WebAssembly build from the npm package `mujoco-js`).
//
// Usage: node tools/mujoco3/mj3.mjs MODEL.xml [--steps N] [--dt H] [--every K] [--key K]
//
// Prints one JSON object on stdout (see README.md for the format). Everything
// MuJoCo itself prints (warnings, "Loading error: ...") goes to stderr, so
// stdout stays parseable. Exits 1 with MuJoCo's error text on stderr when the
// model cannot be loaded, 2 on a usage error.

import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const USAGE = 'usage: node tools/mujoco3/mj3.mjs MODEL.xml [--steps N] [--dt H] [--every K] [--key K] [--servo-kp KP] [--servo-kd KD] [--full-qpos]';

function die(msg, code = 1) {
  process.stderr.write(`mj3: ${msg}\n`);
  process.exit(code);
}

// ---------------------------------------------------------------- arguments
function parseArgs(argv) {
  const a = { model: null, steps: 0, dt: null, every: 1, key: -1, servoKp: 0, servoKd: null, fullQpos: false };
  for (let i = 0; i < argv.length; i++) {
    const s = argv[i];
    const val = () => {
      if (i + 1 >= argv.length) die(`${s} needs a value\n${USAGE}`, 2);
      return argv[++i];
    };
    if (s === '-h' || s === '--help') {
      process.stdout.write(USAGE + '\n');
      process.exit(0);
    } else if (s === '--steps') {
      a.steps = Number(val());
      if (!Number.isInteger(a.steps) || a.steps < 0) die(`--steps must be an integer >= 0\n${USAGE}`, 2);
    } else if (s === '--dt') {
      a.dt = Number(val());
      if (!(Number.isFinite(a.dt) && a.dt > 0)) die(`--dt must be a positive number\n${USAGE}`, 2);
    } else if (s === '--every') {
      a.every = Number(val());
      if (!Number.isInteger(a.every) || a.every < 1) die(`--every must be an integer >= 1\n${USAGE}`, 2);
    } else if (s === '--servo-kp' || s === '--servo-kd') {
      const v = Number(val());
      if (!(Number.isFinite(v) && v >= 0)) die(`${s} must be a number >= 0\n${USAGE}`, 2);
      if (s === '--servo-kp') a.servoKp = v; else a.servoKd = v;
    } else if (s === '--full-qpos') {
      a.fullQpos = true;
    } else if (s === '--key') {
      a.key = Number(val());
      if (!Number.isInteger(a.key) || a.key < 0) die(`--key must be an integer >= 0\n${USAGE}`, 2);
    } else if (s.startsWith('--')) {
      die(`unknown option ${s}\n${USAGE}`, 2);
    } else if (a.model === null) {
      a.model = s;
    } else {
      die(`unexpected argument ${s}\n${USAGE}`, 2);
    }
  }
  if (a.model === null) die(USAGE, 2);
  return a;
}

const args = parseArgs(process.argv.slice(2));
const modelPath = path.resolve(args.model);
if (!fs.existsSync(modelPath) || !fs.statSync(modelPath).isFile()) die(`model file not found: ${modelPath}`);

// ---------------------------------------------------------------- load the WASM module
let loadMujoco;
let pkgVersion = null;
try {
  ({ default: loadMujoco } = await import('mujoco-js'));
  const require = createRequire(import.meta.url);
  pkgVersion = JSON.parse(fs.readFileSync(require.resolve('mujoco-js/package.json'), 'utf8')).version;
} catch (e) {
  die(`cannot load the npm package mujoco-js (run: npm ci --prefix ${path.relative(process.cwd(), HERE) || '.'}): ${e.message}`);
}

// The module does not export its heap; grab the wasm memory while it is
// instantiated, to read the message of MuJoCo's C++ exceptions (mjCError /
// mjXError both start with `char message[...]`).
let wasmMemory = null;
const origInstantiate = WebAssembly.instantiate;
WebAssembly.instantiate = async (...xs) => {
  const r = await origInstantiate(...xs);
  wasmMemory = (r.instance ?? r).exports.memory;
  return r;
};
const mjPrinted = [];
const mj = await loadMujoco({
  print: (s) => { mjPrinted.push(s); process.stderr.write(s + '\n'); },
  printErr: (s) => { mjPrinted.push(s); process.stderr.write(s + '\n'); },
});
WebAssembly.instantiate = origInstantiate;

function cString(ptr, max = 2000) {
  if (!wasmMemory || !ptr) return '';
  const u8 = new Uint8Array(wasmMemory.buffer);
  let e = ptr;
  while (e < u8.length && e - ptr < max && u8[e] !== 0) e++;
  return new TextDecoder().decode(u8.subarray(ptr, e));
}

function exceptionText(e) {
  if (e && typeof e.excPtr === 'number') {
    const type = e.name || 'C++ exception';
    if (type === 'mjCError' || type === 'mjXError') return cString(e.excPtr).trim();
    return `${type}: ${e.message ?? ''}`.trim();
  }
  return String(e?.message ?? e);
}

// ---------------------------------------------------------------- virtual file system
// Host files are mirrored into MEMFS at their *absolute* host paths, so that
// MuJoCo resolves includes, meshdir/texturedir/assetdir and "../x.png"
// references exactly as it would on the host. The model's directory is copied
// up front; any other file MuJoCo then fails to open is copied on demand and
// the load is retried.
const FS = mj.FS;
const copied = new Set();
let copiedBytes = 0;

function vfsWriteFile(hostFile) {
  if (copied.has(hostFile)) return false;
  FS.mkdirTree(path.dirname(hostFile));
  const buf = fs.readFileSync(hostFile);
  FS.writeFile(hostFile, buf);
  copied.add(hostFile);
  copiedBytes += buf.length;
  return true;
}

const PRELOAD_LIMIT_BYTES = 256 << 20; // stop pre-copying past 256 MiB (on-demand copying still works)
function preloadDir(dir) {
  const stack = [dir];
  while (stack.length) {
    const d = stack.pop();
    let ents;
    try { ents = fs.readdirSync(d, { withFileTypes: true }); } catch { continue; }
    for (const ent of ents) {
      if (ent.name.startsWith('.') || ent.name === 'node_modules') continue;
      const p = path.join(d, ent.name);
      let st;
      try { st = fs.statSync(p); } catch { continue; }
      if (st.isDirectory()) stack.push(p);
      else if (st.isFile()) {
        if (copiedBytes + st.size > PRELOAD_LIMIT_BYTES) return;
        vfsWriteFile(p);
      }
    }
  }
}

preloadDir(path.dirname(modelPath));
vfsWriteFile(modelPath);

function loadModel(file) {
  const onDemand = [];
  for (let attempt = 0; attempt < 1000; attempt++) {
    let err;
    mjPrinted.length = 0;
    try {
      const m = mj.MjModel.loadFromXML(file);
      if (m) return { model: m, onDemand };
      err = mjPrinted.join('\n').replace(/^Loading error:\s*/, '') || 'MjModel.loadFromXML returned null';
    } catch (e) {
      err = exceptionText(e);
    }
    // "Error opening file '/abs/path': No such file or directory" -> copy it if the host has it
    const mm = /Error opening file '([^']+)'/.exec(err);
    if (mm) {
      const want = path.resolve(mm[1]);
      if (!copied.has(want) && fs.existsSync(want) && fs.statSync(want).isFile()) {
        vfsWriteFile(want);
        onDemand.push(want);
        continue;
      }
    }
    return { error: err, onDemand };
  }
  return { error: 'too many load attempts', onDemand };
}

const { model: m, error: loadError, onDemand } = loadModel(modelPath);
if (!m) die(`MuJoCo failed to load ${modelPath}:\n${loadError}`);
if (onDemand.length) process.stderr.write(`mj3: copied on demand into the VFS: ${onDemand.join(', ')}\n`);

// ---------------------------------------------------------------- simulate
const BODY = mj.mjtObj.mjOBJ_BODY.value;
const ENBL_ENERGY = mj.mjtEnableBit?.mjENBL_ENERGY?.value ?? 2;
if (args.dt !== null) m.opt.timestep = args.dt;
let energyOn = true;
try { m.opt.enableflags = m.opt.enableflags | ENBL_ENERGY; } catch { energyOn = false; }

const bodyNames = [];
// Names from the model's name buffer: mj_id2name's binding returns garbage for unnamed bodies.
{
  const names = m.names, adr = m.name_bodyadr;
  for (let i = 0; i < m.nbody; i++) {
    let end = adr[i];
    while (end < names.length && names[end] !== 0) end++;
    bodyNames.push(String.fromCharCode(...names.subarray(adr[i], end)));
  }
  if (bodyNames[0] === '') bodyNames[0] = 'world';
}

// Typed arrays are views into the wasm heap: re-fetch after any call that may grow it.
function bodies(d) {
  const xpos = d.xpos, xquat = d.xquat, xipos = d.xipos, out = [];
  for (let i = 0; i < m.nbody; i++) {
    out.push({
      name: bodyNames[i],
      xpos: [xpos[3 * i], xpos[3 * i + 1], xpos[3 * i + 2]],
      xquat: [xquat[4 * i], xquat[4 * i + 1], xquat[4 * i + 2], xquat[4 * i + 3]],
      xipos: [xipos[3 * i], xipos[3 * i + 1], xipos[3 * i + 2]],
    });
  }
  return out;
}

const d = new mj.MjData(m); // qpos = qpos0, qvel = 0, ctrl = 0
// --key K: the state of keyframe K (mj_resetDataKeyframe), when the model has one; else qpos0.
const keyUsed = args.key >= 0 && args.key < m.nkey ? args.key : -1;
if (keyUsed >= 0) mj.mj_resetDataKeyframe(m, d, keyUsed);
mj.mj_forward(m, d);

const result = {
  engine: `MuJoCo ${mj.mj_versionString()} (WebAssembly, npm mujoco-js ${pkgVersion})`,
  mujoco_version: mj.mj_versionString(),
  model: modelPath,
  nbody: m.nbody,
  nq: m.nq,
  nv: m.nv,
  nu: m.nu,
  ngeom: m.ngeom,
  timestep: m.opt.timestep,
  integrator: m.opt.integrator,
  cone: m.opt.cone,
  solver: m.opt.solver,
  iterations: m.opt.iterations,
  nkey: m.nkey,
  key: keyUsed,
  ncon0: d.ncon,
  qpos0: Array.from(d.qpos), // the initial state's (keyframe K's or qpos0)
  bodies: bodies(d),
};

if (args.steps > 0) {
  // Energy is evaluated at the recorded state by an mj_forward on a scratch
  // MjData, so that the stepped trajectory is not perturbed. ncon is d.ncon
  // after mj_step, i.e. the contacts MuJoCo used in that step (detected at the
  // state the step started from).
  const scratch = energyOn ? new mj.MjData(m) : null;
  const energyAt = () => {
    if (!scratch) return null;
    scratch.qpos.set(d.qpos);
    scratch.qvel.set(d.qvel);
    if (m.na > 0) scratch.act.set(d.act);
    if (m.nmocap > 0) { scratch.mocap_pos.set(d.mocap_pos); scratch.mocap_quat.set(d.mocap_quat); }
    scratch.time = d.time;
    mj.mj_forward(m, scratch);
    const e = scratch.energy;
    return [e[0], e[1]];
  };
  const nq7 = args.fullQpos ? m.nq : Math.min(7, m.nq); // --full-qpos: every joint's entries
  const trajectory = [];
  let nconSum = 0;
  let wallMs = 0;
  // --servo-kp: every hinge or slide actuator's ctrl = kp (q0 - q) - kd qd at each step, q0 its
  // angle at the start, clamped to ctrlrange by MuJoCo: moreau's `--set servo_kp` (which is a
  // stable PD servo, so the two agree for small dt kp / inertia).
  const servo = [];
  if (args.servoKp > 0) {
    const kd = args.servoKd ?? args.servoKp / 20;
    const trn = m.actuator_trnid, jqp = m.jnt_qposadr, jdof = m.jnt_dofadr, jtype = m.jnt_type;
    const gear = m.actuator_gear;
    for (let i = 0; i < m.nu; i++) {
      const jn = trn[2 * i];
      if (jtype[jn] !== 2 && jtype[jn] !== 3) continue;  // mjJNT_SLIDE, mjJNT_HINGE
      servo.push({ u: i, qa: jqp[jn], va: jdof[jn], q0: d.qpos[jqp[jn]], g: gear[6 * i], kd });
    }
  }
  for (let k = 1; k <= args.steps; k++) {
    if (servo.length) {
      const qpos = d.qpos, qvel = d.qvel, ctrl = d.ctrl;
      for (const sv of servo)
        ctrl[sv.u] = (args.servoKp * (sv.q0 - qpos[sv.qa]) - sv.kd * qvel[sv.va]) / sv.g;
    }
    const t0 = performance.now();
    mj.mj_step(m, d);
    wallMs += performance.now() - t0;
    nconSum += d.ncon;
    if (k % args.every === 0 || k === args.steps) {
      trajectory.push({
        step: k,
        t: d.time,
        ncon: d.ncon,
        qpos: Array.from(d.qpos.subarray(0, nq7)),
        energy: energyAt(),
      });
    }
  }
  result.trajectory = trajectory;
  mj.mj_forward(m, d); // kinematics (xpos/xquat) of the final state
  result.final = { t: d.time, qpos: Array.from(d.qpos), bodies: bodies(d) };
  result.ncon_mean = nconSum / args.steps;
  result.wall_s_per_step = wallMs / 1000 / args.steps;
  result.wall_clock_note = 'WebAssembly (Node ' + process.version + '), mj_step only, single thread';
  scratch?.delete();
}

process.stdout.write(JSON.stringify(result) + '\n');
d.delete();
m.delete();
