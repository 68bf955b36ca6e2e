// moreau's trajectory viewer (docs/viewer.md): draws the model of the page's data (bodies,
// geometries, joint frames) with three.js and replays its frames (poses, contact points and
// forces). URL hash modes: #snapshot (no controls, frame 0), #selftest (checks the page and
// writes a JSON result into #moreau-selftest). Data with a "gallery" list draws a grid of
// systems (the picture of `moreau bench`'s report).
(function () {
  "use strict";

  var PALETTE = [0x4e79a7, 0xf28e2b, 0xe15759, 0x76b7b2, 0x59a14f, 0xedc948, 0xb07aa1,
                 0xff9da7, 0x9c755f, 0x6b8fb5];
  var BACKGROUND = 0xf3f5f8;
  var WORLD_COLOR = 0xb8bec6;

  function decode(b64, Type) {
    if (!b64) return new Type(0);
    var bin = atob(b64);
    var bytes = new Uint8Array(bin.length);
    for (var i = 0; i < bin.length; ++i) bytes[i] = bin.charCodeAt(i);
    return new Type(bytes.buffer);
  }

  function setPose(obj, p, q) {
    obj.position.set(p[0], p[1], p[2]);
    obj.quaternion.set(q[1], q[2], q[3], q[0]);  // data: (w, x, y, z)
  }

  // A capsule along z: a lathe of two quarter circles joined by the cylinder's side.
  function capsuleGeometry(r, h) {
    var pts = [], n = 12, i, a;
    for (i = 0; i <= n; ++i) {
      a = -Math.PI / 2 + (Math.PI / 2) * i / n;
      pts.push(new THREE.Vector2(r * Math.cos(a), -h + r * Math.sin(a)));
    }
    for (i = 0; i <= n; ++i) {
      a = (Math.PI / 2) * i / n;
      pts.push(new THREE.Vector2(r * Math.cos(a), h + r * Math.sin(a)));
    }
    var g = new THREE.LatheBufferGeometry(pts, 24);
    g.rotateX(Math.PI / 2);  // lathe axis y -> z
    return g;
  }

  function meshGeometry(mesh) {
    var v = decode(mesh.vertices, Float32Array), t = decode(mesh.triangles, Uint32Array);
    var g = new THREE.BufferGeometry();
    g.setAttribute("position", new THREE.BufferAttribute(v, 3));
    g.setIndex(new THREE.BufferAttribute(t, 1));
    g = g.toNonIndexed();  // flat shading: one normal per triangle
    g.computeVertexNormals();
    return g;
  }

  // The three.js object of one geometry, in its geometry frame (planes are added later, once
  // the scene's size is known).
  function geometryObject(g, meshes, color) {
    var geo = null, scale = null;
    switch (g.type) {
      case "sphere": geo = new THREE.SphereBufferGeometry(g.radius, 24, 16); break;
      case "ellipsoid":
        geo = new THREE.SphereBufferGeometry(1, 24, 16);
        scale = g.half_extents;
        break;
      case "box":
        geo = new THREE.BoxBufferGeometry(2 * g.half_extents[0], 2 * g.half_extents[1],
                                          2 * g.half_extents[2]);
        break;
      case "cylinder":
        geo = new THREE.CylinderBufferGeometry(g.radius, g.radius, 2 * g.half_length, 24);
        geo.rotateX(Math.PI / 2);  // three's cylinders are along y, moreau's along z
        break;
      case "capsule": geo = capsuleGeometry(g.radius, g.half_length); break;
      case "convex_mesh": case "mesh": case "height_field":
        if (g.mesh === undefined) return null;
        geo = meshGeometry(meshes[g.mesh]);
        break;
      default: return null;
    }
    var mat = new THREE.MeshPhongMaterial({color: color, shininess: 30,
                                           flatShading: g.type === "convex_mesh" || g.type === "mesh"});
    var m = new THREE.Mesh(geo, mat);
    if (scale) m.scale.set(scale[0], scale[1], scale[2]);
    setPose(m, g.p, g.q);
    return m;
  }

  // Builds the three.js scene of one system: returns {scene, bodies, joints, contacts, bounds,
  // frames, ...}.
  function buildSystem(data) {
    var model = data.model, scene = new THREE.Scene();
    var nb = model.bodies.length;
    var frames = data.frames;
    var sys = {data: data, scene: scene, nb: nb, count: frames.count,
               t: decode(frames.t, Float64Array), pose: decode(frames.pose, Float32Array),
               bodies: [], jointHelpers: [], planes: []};
    if (sys.pose.length !== sys.count * nb * 7)
      throw new Error("moreau viewer: pose data holds " + sys.pose.length + " numbers, expected " +
                      sys.count * nb * 7);
    var b, i, k;
    for (b = 0; b < nb; ++b) {
      var group = new THREE.Group();
      group.name = model.bodies[b].name;
      if (model.bodies[b].box) {  // no geometry: the body's inertia box, translucent
        var h = model.bodies[b].box;
        group.add(new THREE.Mesh(new THREE.BoxBufferGeometry(2 * h[0], 2 * h[1], 2 * h[2]),
          new THREE.MeshPhongMaterial({color: PALETTE[b % PALETTE.length], transparent: true,
                                       opacity: 0.45})));
      }
      scene.add(group);
      sys.bodies.push(group);
    }
    var world = new THREE.Group();
    scene.add(world);
    model.geoms.forEach(function (g) {
      if (g.type === "plane") { sys.planes.push(g); return; }
      var color = g.body < 0 ? WORLD_COLOR : PALETTE[g.body % PALETTE.length];
      var obj = geometryObject(g, model.meshes, color);
      if (obj) (g.body < 0 ? world : sys.bodies[g.body]).add(obj);
    });
    showFrame(sys, 0);

    // Bounds: the bodies at frame 0 swept along their CoM paths, and the world's bounded
    // geometries.
    var box = new THREE.Box3(), start = new THREE.Box3(), tmp = new THREE.Box3();
    var v = new THREE.Vector3();
    for (b = 0; b < nb; ++b) {
      tmp.setFromObject(sys.bodies[b]);
      if (tmp.isEmpty()) continue;
      start.union(tmp);
      var size = tmp.getSize(new THREE.Vector3()).length() / 2;
      var step = Math.max(1, Math.floor(sys.count / 200));
      for (k = 0; k < sys.count; k += step) {
        i = (k * nb + b) * 7;
        v.set(sys.pose[i], sys.pose[i + 1], sys.pose[i + 2]);
        box.expandByPoint(v.clone().addScalar(size));
        box.expandByPoint(v.clone().addScalar(-size));
      }
      box.union(tmp);
    }
    tmp.setFromObject(world);
    if (!tmp.isEmpty()) { box.union(tmp); start.union(tmp); }
    if (box.isEmpty()) box.set(new THREE.Vector3(-1, -1, -1), new THREE.Vector3(1, 1, 1));
    if (start.isEmpty()) start.copy(box);
    // The camera frames the first frame; the ground spans the whole motion.
    sys.center = start.getCenter(new THREE.Vector3());
    sys.size = Math.max(start.getSize(new THREE.Vector3()).length(), 0.2);
    sys.extent = Math.max(box.getSize(new THREE.Vector3()).length(), sys.size);

    // Planes: a patch several scene sizes wide with a grid, in the plane's frame (normal +z).
    sys.planes.forEach(function (g) {
      var s = Math.max(3 * sys.extent, 2), obj = new THREE.Group();
      var patch = new THREE.Mesh(new THREE.PlaneBufferGeometry(s, s),
        new THREE.MeshPhongMaterial({color: 0xdfe3e8, side: THREE.DoubleSide,
                                     polygonOffset: true, polygonOffsetFactor: 1,
                                     polygonOffsetUnits: 1}));
      var grid = new THREE.GridHelper(s, 20, 0xa0a8b2, 0xc4cad2);
      grid.rotation.x = Math.PI / 2;  // GridHelper lies in xz; the plane is xy
      obj.add(patch);
      obj.add(grid);
      setPose(obj, g.p, g.q);
      if (g.body < 0) world.add(obj); else sys.bodies[g.body].add(obj);
    });

    // Joint frames: axes (x red, y green, z blue) at each joint's frame on its follower.
    var axis = 0.06 * sys.size;
    model.joints.forEach(function (j) {
      var a = new THREE.AxesHelper(axis);
      setPose(a, j.p, j.q);
      a.material.depthTest = false;
      a.renderOrder = 2;
      sys.bodies[j.follower].add(a);
      sys.jointHelpers.push(a);
    });

    // Contacts: points and force arrows (lines), the buffers sized for the busiest frame.
    if (frames.contact_begin) {
      sys.cbegin = decode(frames.contact_begin, Uint32Array);
      sys.cdata = decode(frames.contacts, Float32Array);
      var most = 0, mags = [];
      for (k = 0; k < sys.count; ++k) most = Math.max(most, sys.cbegin[k + 1] - sys.cbegin[k]);
      for (i = 0; i < sys.cdata.length; i += 6)
        mags.push(Math.hypot(sys.cdata[i + 3], sys.cdata[i + 4], sys.cdata[i + 5]));
      mags.sort(function (x, y) { return x - y; });
      // The 95th percentile of the force magnitudes is drawn a fifth of the scene's size (impact
      // spikes would make the others invisible).
      var f95 = mags.length ? mags[Math.floor(0.95 * (mags.length - 1))] : 0;
      sys.forceScale = f95 > 0 ? 0.2 * sys.size / f95 : 0;
      var pg = new THREE.BufferGeometry(), lg = new THREE.BufferGeometry();
      pg.setAttribute("position", new THREE.BufferAttribute(new Float32Array(3 * most + 3), 3));
      lg.setAttribute("position", new THREE.BufferAttribute(new Float32Array(6 * most + 6), 3));
      sys.contactPoints = new THREE.Points(pg, new THREE.PointsMaterial(
        {color: 0xd62728, size: 6, sizeAttenuation: false, depthTest: false}));
      sys.contactForces = new THREE.LineSegments(lg, new THREE.LineBasicMaterial(
        {color: 0xe6550d, depthTest: false}));
      sys.contactPoints.renderOrder = sys.contactForces.renderOrder = 3;
      sys.contactPoints.frustumCulled = sys.contactForces.frustumCulled = false;
      scene.add(sys.contactPoints);
      scene.add(sys.contactForces);
      showFrame(sys, 0);
    }

    scene.add(new THREE.HemisphereLight(0xffffff, 0x8090a0, 0.75));
    var sun = new THREE.DirectionalLight(0xffffff, 0.55);
    sun.position.set(0.5, -0.8, 1.2);
    scene.add(sun);
    scene.background = new THREE.Color(BACKGROUND);
    return sys;
  }

  // Puts the bodies (and contacts) at frame f.
  function showFrame(sys, f) {
    var nb = sys.nb, P = sys.pose, i;
    for (var b = 0; b < nb; ++b) {
      i = (f * nb + b) * 7;
      sys.bodies[b].position.set(P[i], P[i + 1], P[i + 2]);
      sys.bodies[b].quaternion.set(P[i + 4], P[i + 5], P[i + 6], P[i + 3]);
    }
    sys.frame = f;
    if (!sys.contactPoints) return;
    var c0 = sys.cbegin[f], c1 = sys.cbegin[f + 1], C = sys.cdata, s = sys.forceScale;
    var pp = sys.contactPoints.geometry.attributes.position;
    var lp = sys.contactForces.geometry.attributes.position;
    for (var c = c0, n = 0; c < c1; ++c, ++n) {
      i = 6 * c;
      pp.array[3 * n] = C[i]; pp.array[3 * n + 1] = C[i + 1]; pp.array[3 * n + 2] = C[i + 2];
      lp.array[6 * n] = C[i]; lp.array[6 * n + 1] = C[i + 1]; lp.array[6 * n + 2] = C[i + 2];
      lp.array[6 * n + 3] = C[i] + s * C[i + 3];
      lp.array[6 * n + 4] = C[i + 1] + s * C[i + 4];
      lp.array[6 * n + 5] = C[i + 2] + s * C[i + 5];
    }
    sys.contactPoints.geometry.setDrawRange(0, c1 - c0);
    sys.contactForces.geometry.setDrawRange(0, 2 * (c1 - c0));
    pp.needsUpdate = lp.needsUpdate = true;
  }

  // Orbit camera around a target, z up: drag to orbit, right-drag or shift-drag to pan, wheel
  // to zoom.
  function OrbitCamera(camera, dom, target, radius, onChange) {
    var self = this;
    self.target = target.clone();
    self.radius = radius;
    self.azimuth = -Math.PI / 3;
    self.elevation = 0.45;
    camera.up.set(0, 0, 1);
    self.update = function () {
      var ce = Math.cos(self.elevation);
      camera.position.set(self.target.x + self.radius * ce * Math.cos(self.azimuth),
                          self.target.y + self.radius * ce * Math.sin(self.azimuth),
                          self.target.z + self.radius * Math.sin(self.elevation));
      camera.near = self.radius / 200;
      camera.far = self.radius * 200;
      camera.updateProjectionMatrix();
      camera.lookAt(self.target);
      onChange();
    };
    if (dom) {
      var drag = null;
      dom.addEventListener("contextmenu", function (e) { e.preventDefault(); });
      dom.addEventListener("pointerdown", function (e) {
        drag = {x: e.clientX, y: e.clientY, pan: e.button === 2 || e.shiftKey};
        dom.setPointerCapture(e.pointerId);
      });
      dom.addEventListener("pointerup", function () { drag = null; });
      dom.addEventListener("pointermove", function (e) {
        if (!drag) return;
        var dx = e.clientX - drag.x, dy = e.clientY - drag.y;
        drag.x = e.clientX;
        drag.y = e.clientY;
        if (drag.pan) {
          var k = self.radius / dom.clientHeight;
          var right = new THREE.Vector3().setFromMatrixColumn(camera.matrix, 0);
          var up = new THREE.Vector3().setFromMatrixColumn(camera.matrix, 1);
          self.target.addScaledVector(right, -dx * k).addScaledVector(up, dy * k);
        } else {
          self.azimuth -= dx * 0.008;
          self.elevation = Math.max(-1.5, Math.min(1.5, self.elevation + dy * 0.008));
        }
        self.update();
      });
      dom.addEventListener("wheel", function (e) {
        e.preventDefault();
        self.radius *= Math.exp(0.001 * e.deltaY);
        self.update();
      }, {passive: false});
    }
  }

  function pixelsOf(renderer) {
    var gl = renderer.getContext(), w = gl.drawingBufferWidth, h = gl.drawingBufferHeight;
    var px = new Uint8Array(w * h * 4);
    gl.readPixels(0, 0, w, h, gl.RGBA, gl.UNSIGNED_BYTE, px);
    return px;
  }
  // Pixels whose colour differs from `ref` (another image, or the background) by more than
  // 12 of 255 in some channel.
  function countDifferent(px, ref) {
    var bg = new THREE.Color(BACKGROUND), n = 0, r, g, b;
    for (var i = 0; i < px.length; i += 4) {
      if (ref) { r = ref[i]; g = ref[i + 1]; b = ref[i + 2]; }
      else { r = bg.r * 255; g = bg.g * 255; b = bg.b * 255; }
      if (Math.abs(px[i] - r) > 12 || Math.abs(px[i + 1] - g) > 12 || Math.abs(px[i + 2] - b) > 12)
        ++n;
    }
    return n;
  }
  function drawnBodies(sys) {
    var n = 0;
    sys.bodies.forEach(function (g) {
      var drawn = false;
      g.traverse(function (o) { if (o.isMesh && o.visible) drawn = true; });
      if (drawn && g.parent === sys.scene) ++n;
    });
    return n;
  }

  function fmt(x) { return x.toFixed(3); }

  // Camera distance at which a sphere of diameter `size` fills the vertical field of view.
  function fitDistance(size, fovDeg) {
    return 1.05 * 0.5 * size / Math.sin(0.5 * fovDeg * Math.PI / 180);
  }

  function viewer(data, mode, startTime) {
    var view = document.getElementById("view");
    var renderer = new THREE.WebGLRenderer({antialias: true});
    renderer.setPixelRatio(window.devicePixelRatio || 1);
    renderer.setSize(view.clientWidth, view.clientHeight);
    view.appendChild(renderer.domElement);
    var sys = buildSystem(data);
    var camera = new THREE.PerspectiveCamera(40, view.clientWidth / view.clientHeight, 0.01, 100);
    var dirty = true;
    var orbit = new OrbitCamera(camera, renderer.domElement, sys.center, fitDistance(sys.size, 40),
                                function () { dirty = true; });
    orbit.update();

    var title = document.getElementById("title");
    title.innerHTML = "";
    var b = document.createElement("b");
    b.textContent = data.scene;
    title.appendChild(b);
    title.appendChild(document.createTextNode(
      "  solver " + data.solver + ", " + data.integrator + ", dt " + data.dt + " s, " +
      sys.nb + " bodies, " + sys.count + " frames" +
      (data.frames.recorded > sys.count ? " (of " + data.frames.recorded + " recorded)" : "")));

    var slider = document.getElementById("slider"), play = document.getElementById("play");
    var speed = document.getElementById("speed"), time = document.getElementById("time");
    var joints = document.getElementById("show-joints");
    var contacts = document.getElementById("show-contacts");
    slider.max = String(sys.count - 1);
    var state = {playing: false, simTime: sys.t[0], last: null};
    var t0 = sys.t[0], t1 = sys.t[sys.count - 1];

    function label() {
      time.textContent = "t = " + fmt(sys.t[sys.frame]) + " / " + fmt(t1) + " s  (frame " +
                         sys.frame + ")";
    }
    function go(f) {
      if (f !== sys.frame) {
        showFrame(sys, f);
        dirty = true;
        if (followOffset) {
          orbit.target.copy(meanPosition()).add(followOffset);
          orbit.update();
        }
      }
      slider.value = String(f);
      label();
    }
    // Last frame with t <= simTime.
    function frameAt(simTime) {
      var lo = 0, hi = sys.count - 1;
      while (lo < hi) {
        var mid = (lo + hi + 1) >> 1;
        if (sys.t[mid] <= simTime) lo = mid; else hi = mid - 1;
      }
      return lo;
    }
    function setPlaying(on) {
      state.playing = on;
      state.last = null;
      frameMs = 0;
      if (!on) setScale(1);
      play.innerHTML = on ? "&#10074;&#10074;" : "&#9654;";
      if (on && sys.frame === sys.count - 1) state.simTime = t0;
    }
    slider.addEventListener("input", function () {
      if (!state.playing) setScale(1);
      go(parseInt(slider.value, 10));
      state.simTime = sys.t[sys.frame];
    });
    play.addEventListener("click", function () { setPlaying(!state.playing); });
    document.addEventListener("keydown", function (e) {
      if (e.code === "Space" && e.target.tagName !== "SELECT") {
        e.preventDefault();
        setPlaying(!state.playing);
      }
    });
    joints.addEventListener("change", function () {
      sys.jointHelpers.forEach(function (a) { a.visible = joints.checked; });
      dirty = true;
    });
    contacts.addEventListener("change", function () {
      if (sys.contactPoints) sys.contactPoints.visible = sys.contactForces.visible = contacts.checked;
      dirty = true;
    });
    if (!sys.contactPoints) contacts.parentNode.style.display = "none";
    if (!sys.jointHelpers.length) joints.parentNode.style.display = "none";
    if (sys.jointHelpers.length > 12) {  // a robot's many frames hide it: off until asked
      joints.checked = false;
      sys.jointHelpers.forEach(function (a) { a.visible = false; });
    }
    // Follow: the camera's target moves with the bodies' mean position.
    var follow = document.getElementById("follow"), followOffset = null;
    function meanPosition() {
      var m = new THREE.Vector3();
      sys.bodies.forEach(function (g) { m.add(g.position); });
      return m.divideScalar(Math.max(sys.nb, 1));
    }
    follow.addEventListener("change", function () {
      followOffset = follow.checked ? orbit.target.clone().sub(meanPosition()) : null;
    });
    window.addEventListener("resize", function () {
      renderer.setSize(view.clientWidth, view.clientHeight);
      camera.aspect = view.clientWidth / view.clientHeight;
      camera.updateProjectionMatrix();
      dirty = true;
    });

    // One animation step at time stamp ts [ms]: advance the playback, draw if anything changed.
    // Adaptive resolution: while playing, frames slower than 30 ms (a software WebGL renderer, a
    // large window) lower the drawing resolution step by step, down to a third; a paused or
    // scrubbed picture is drawn at full resolution again.
    var fullRatio = window.devicePixelRatio || 1, scale = 1, frameMs = 0;
    function setScale(k) {
      if (k === scale) return;
      scale = k;
      renderer.setPixelRatio(fullRatio * scale);
      renderer.setSize(view.clientWidth, view.clientHeight);
      dirty = true;
    }
    function tick(ts) {
      if (state.playing) {
        if (state.last !== null) {
          var dt = ts - state.last;
          frameMs = frameMs ? 0.8 * frameMs + 0.2 * dt : dt;
          if (frameMs > 30 && scale > 0.34) { setScale(Math.max(scale * 0.8, 1 / 3)); frameMs = 0; }
          state.simTime += (ts - state.last) / 1000 * parseFloat(speed.value);
          if (state.simTime > t1) state.simTime = t0 + (state.simTime - t1) % Math.max(t1 - t0, 1e-9);
        }
        state.last = ts;
        go(frameAt(state.simTime));
      }
      if (dirty) {
        renderer.render(sys.scene, camera);
        dirty = false;
      }
    }
    go(startTime !== null && isFinite(startTime) ? frameAt(startTime) : 0);
    state.simTime = sys.t[sys.frame];
    label();
    tick(0);
    if (mode === "selftest")
      return selftest(renderer, sys, slider, {
        setPlaying: setPlaying, tick: tick, scale: function () { return scale; },
        draw: function () { renderer.render(sys.scene, camera); }});
    (function loop(ts) { tick(ts); requestAnimationFrame(loop); })(0);
    return null;
  }

  // The self-test (docs/viewer.md): runs synchronously while the page loads, so that a headless
  // browser's --dump-dom sees its result.
  function selftest(renderer, sys, slider, page) {
    // load_ms: from the start of navigation to a drawn first frame (parse, decode, build).
    var r = {load_ms: performance.now(), bodies_expected: sys.nb, bodies_drawn: drawnBodies(sys),
             frames: sys.count};
    var gl = renderer.getContext();
    r.width = gl.drawingBufferWidth;
    r.height = gl.drawingBufferHeight;
    var first = pixelsOf(renderer);
    r.drawn_pixels = countDifferent(first, null);
    // Move the slider to the last frame, as a user would.
    slider.value = String(sys.count - 1);
    slider.dispatchEvent(new Event("input"));
    page.tick(performance.now());
    r.frame_after_slider = sys.frame;
    r.slider_changed_pixels = countDifferent(pixelsOf(renderer), first);
    var one = new Uint8Array(4), k, start, n = 60;
    function finish() { gl.readPixels(0, 0, 1, 1, gl.RGBA, gl.UNSIGNED_BYTE, one); }
    // Full resolution: n frames spread over the trajectory, each drawn and finished (a one-pixel
    // read waits for the renderer).
    start = performance.now();
    for (k = 0; k < n; ++k) {
      showFrame(sys, Math.floor(k * (sys.count - 1) / (n - 1)));
      page.draw();
      finish();
    }
    r.full_frame_ms = (performance.now() - start) / n;
    // Playing at 1x as the page does (adaptive resolution included): 3n frames, the rate over
    // the last n.
    slider.value = "0";
    slider.dispatchEvent(new Event("input"));
    page.setPlaying(true);
    var seen = {}, distinct = 0;
    for (k = 0; k < 3 * n; ++k) {
      if (k === 2 * n) start = performance.now();
      page.tick(performance.now());
      if (!seen[sys.frame]) { seen[sys.frame] = true; ++distinct; }
      finish();
    }
    r.play_frame_ms = (performance.now() - start) / n;
    r.play_fps = 1000 / r.play_frame_ms;
    r.play_resolution_scale = page.scale();
    r.play_distinct_frames = distinct;
    page.setPlaying(false);
    // The page's own share of a frame: the pose and contact update, no drawing.
    start = performance.now();
    for (k = 0; k < 10 * n; ++k) showFrame(sys, (k * 7919) % sys.count);
    r.update_ms = (performance.now() - start) / (10 * n);
    return r;
  }

  // The gallery: one tile per system, one renderer, drawn once.
  // Tiles of tile[0] x tile[1] CSS pixels, `columns` per row: the page's size does not depend on
  // the window's (a headless browser may resize it between load and screenshot).
  function gallery(list, columns, tile) {
    document.body.classList.add("snapshot");
    var view = document.getElementById("view"), n = list.length;
    var cols = Math.max(1, Math.min(n, columns || Math.ceil(Math.sqrt(n))));
    var rows = Math.max(1, Math.ceil(n / cols));
    var w = tile ? tile[0] : Math.floor(view.clientWidth / cols);
    var h = tile ? tile[1] : Math.floor(view.clientHeight / rows);
    var W = w * cols, H = h * rows;
    var renderer = new THREE.WebGLRenderer({antialias: true});
    renderer.setPixelRatio(window.devicePixelRatio || 1);
    renderer.setSize(W, H);
    renderer.setClearColor(BACKGROUND);
    renderer.clear();
    renderer.setScissorTest(true);
    view.appendChild(renderer.domElement);
    list.forEach(function (data, i) {
      var sys = buildSystem(data);
      sys.jointHelpers.forEach(function (a) { a.visible = false; });
      var camera = new THREE.PerspectiveCamera(35, w / h, 0.01, 100);
      new OrbitCamera(camera, null, sys.center, fitDistance(sys.size, 35), function () {}).update();
      var x = (i % cols) * w, y = Math.floor(i / cols) * h;
      renderer.setViewport(x, H - y - h, w, h);
      renderer.setScissor(x, H - y - h, w, h);
      renderer.render(sys.scene, camera);
      var label = document.createElement("div");
      label.className = "label";
      label.style.left = x + 8 + "px";
      label.style.top = y + 6 + "px";
      label.textContent = data.scene;
      document.body.appendChild(label);
    });
    return {systems: n};
  }

  // "#MODE&t=SECONDS": the mode, and the time of the first frame shown.
  var hash = (window.location.hash || "").replace("#", "").split("&"), mode = hash[0];
  var startTime = null, result = null;
  hash.slice(1).forEach(function (kv) {
    if (kv.indexOf("t=") === 0) startTime = parseFloat(kv.slice(2));
  });
  try {
    var data = JSON.parse(document.getElementById("moreau-data").textContent);
    if (data.gallery) result = gallery(data.gallery, data.columns, data.tile);
    else {
      if (mode === "snapshot") document.body.classList.add("snapshot");
      result = viewer(data, mode, startTime);
    }
  } catch (e) {
    window.moreauErrors.push(String(e && e.stack ? e.stack : e));
  }
  if (mode === "selftest") {
    result = result || {};
    result.errors = window.moreauErrors;
    var out = document.getElementById("moreau-selftest");
    out.textContent = JSON.stringify(result);
    out.hidden = false;
  }
})();
