// The report's only script: client-side filters over data-* attributes the renderer wrote (plain DOM, no library).
export const SCRIPT = `
(function () {
  var $ = function (s) { return document.querySelector(s); };
  var rows = Array.prototype.slice.call(document.querySelectorAll('tr.req'));
  var sections = Array.prototype.slice.call(document.querySelectorAll('details.spec-section'));
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
  function filtering() {
    return ['status', 'level', 'section', 'observer', 'text'].some(function (k) { return f[k].value; });
  }
  function apply() {
    var words = f.text.value.toLowerCase().split(/\\s+/).filter(Boolean);
    var shown = 0;
    rows.forEach(function (r) {
      var ok = matches(r, words);
      r.hidden = !ok;
      if (ok) shown++;
    });
    // Sections stay folded until a filter asks for rows: then each section with a match opens.
    var on = filtering();
    sections.forEach(function (s) { s.hidden = !s.querySelector('tr.req:not([hidden])'); s.open = on && !s.hidden; });
    var attention = $('#attention');
    if (attention) attention.hidden = !attention.querySelector('tr.req:not([hidden])');
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
  // A link to a row (#ID) opens the section that holds it.
  function reveal() {
    var id = decodeURIComponent(location.hash.slice(1));
    var row = id && document.getElementById(id);
    var section = row && row.closest && row.closest('details.spec-section');
    if (section) { section.open = true; row.scrollIntoView(); }
  }
  window.addEventListener('hashchange', reveal);
  // Copy buttons: the text of the <pre> beside each.
  document.querySelectorAll('button.copy').forEach(function (b) {
    b.addEventListener('click', function () {
      var pre = b.parentNode.querySelector('pre');
      var done = function () { b.textContent = 'copied'; setTimeout(function () { b.textContent = 'copy'; }, 1500); };
      if (navigator.clipboard) navigator.clipboard.writeText(pre.textContent).then(done, function () {});
    });
  });
  apply();
  reveal();
})();
`;
