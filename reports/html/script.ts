// The report's only script: client-side filters over data-* attributes the renderer wrote (plain DOM, no library).
export const SCRIPT = `
(function () {
  var $ = function (s) { return document.querySelector(s); };
  var rows = Array.prototype.slice.call(document.querySelectorAll('tr.req'));
  var sections = Array.prototype.slice.call(document.querySelectorAll('section.spec-section'));
  var f = { status: $('#f-status'), level: $('#f-level'), section: $('#f-section'), observer: $('#f-observer'), text: $('#f-text') };
  function matches(r, words) {
    var s = r.dataset.status, st = f.status.value;
    if (st === 'not-pass' ? s === 'pass' : st && s !== st) return false;
    if (f.level.value && r.dataset.level !== f.level.value) return false;
    if (f.section.value && r.dataset.section !== f.section.value) return false;
    if (f.observer.value && r.dataset.observer !== f.observer.value) return false;
    for (var i = 0; i < words.length; i++) if (r.dataset.search.indexOf(words[i]) < 0) return false;
    return true;
  }
  function apply() {
    var words = f.text.value.toLowerCase().split(/\\s+/).filter(Boolean);
    var shown = 0;
    rows.forEach(function (r) {
      var ok = matches(r, words);
      r.hidden = !ok;
      if (ok) shown++;
    });
    sections.forEach(function (s) { s.hidden = !s.querySelector('tr.req:not([hidden])'); });
    $('#shown').textContent = shown + ' of ' + rows.length + ' requirements shown';
    $('#none').hidden = shown > 0;
  }
  ['status', 'level', 'section', 'observer'].forEach(function (k) { f[k].addEventListener('change', apply); });
  f.text.addEventListener('input', apply);
  document.querySelectorAll('[data-filter-status]').forEach(function (b) {
    b.addEventListener('click', function () { f.status.value = b.getAttribute('data-filter-status'); apply(); });
  });
  $('#f-reset').addEventListener('click', function () {
    ['status', 'level', 'section', 'observer', 'text'].forEach(function (k) { f[k].value = ''; }); apply();
  });
  apply();
})();
`;
