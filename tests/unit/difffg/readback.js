/* Appended to a copy of a differential flame graph, after the page's own
 * script: shows each view with the page's toggle, hovers every box and
 * keeps what the page's details line then says, searches as the Search
 * control does, and leaves it all in the data-readback attribute of the
 * root element for `chromium --dump-dom` (read by deltas.py page). */
(function () {
  'use strict';
  var svg = document.documentElement;
  var details = document.getElementById('details');
  var toggle = document.getElementById('toggle');
  var views = document.querySelectorAll('g.view');
  if (!views.length) views = [svg]; /* a plain flame graph */
  var out = { views: [], search: null };
  for (var v = 0; v < views.length; v++) {
    for (var k = 0; k < views.length && views[v].style.display === 'none'; k++)
      toggle.dispatchEvent(new MouseEvent('click'));
    var boxes = [], gs = views[v].querySelectorAll('g.f');
    for (var i = 0; i < gs.length; i++) {
      var g = gs[i];
      if (g.style.display === 'none') continue;
      g.dispatchEvent(new MouseEvent('mouseover'));
      boxes.push({ s: +g.getAttribute('data-s'), n: +g.getAttribute('data-n'),
                   d: +g.getAttribute('data-d'), shown: details.textContent });
      g.dispatchEvent(new MouseEvent('mouseout'));
    }
    out.views.push({ side: views[v].getAttribute('data-side') || 'plain', boxes: boxes,
                     visible: views[v].style.display !== 'none',
                     toggle: toggle ? toggle.textContent : null });
  }
  /* Search in NEW's shape, as the Search control's prompt would. */
  for (var k2 = 0; k2 < views.length && views[0].style.display === 'none'; k2++)
    toggle.dispatchEvent(new MouseEvent('click'));
  /* (a plain graph has no views to switch) */
  var term = svg.getAttribute('data-search');
  if (term) {
    window.prompt = function () { return term; };
    document.getElementById('search').dispatchEvent(new MouseEvent('click'));
    var hits = 0, rs = views[0].querySelectorAll('g.f rect');
    for (var j = 0; j < rs.length; j++)
      if (rs[j].getAttribute('fill') === 'rgb(230,0,230)') hits++;
    out.search = { matched: document.getElementById('matched').textContent, boxes: hits };
  }
  svg.setAttribute('data-readback', encodeURIComponent(JSON.stringify(out)));
})();
