// browser_files.js — the browser glue for the page's files (linked with --pre-js: it runs inside Emscripten's module,
// beside FS and IDBFS). The C++ half and what the app does with the files: browser_files.h. No view lives here.
//   choose(folder)  the browser's file or folder chooser; the chosen bytes are copied into the page's memory file
//                   system, then attnviz_files_arrived(path, folder, problem) tells the app
//   download(path)  a file of the page's memory file system as a browser download (a Blob and an <a download>)
//   sync()          the storage folder's changes into IndexedDB (IDBFS), one sync at a time; `stored` settles
//                   when the last one has
//   drops           files or a folder dropped on the page arrive as if chosen
// Two permanent, hidden inputs (#attnviz-open-file, #attnviz-open-folder) are the choosers; a test can set their
// files directly (DevTools' DOM.setFileInputFiles), which opens them as a choice made with no question pending does.
var attnvizFiles = Module.attnvizFiles = (function () {
  var downloads = '/downloads', storage = '/storage', picked = '/picked';
  var copies = 0;          // each chosen folder gets a fresh /picked/N
  var syncing = false, syncAgain = false;

  function arrived(path, folder, problem) {
    Module.ccall('attnviz_files_arrived', null, ['string', 'number', 'string'], [path, folder ? 1 : 0, problem || '']);
  }
  // One path component as the user's file system named it; '', '.' and '..' are dropped.
  function safeParts(path) {
    return path.split('/').filter(function (part) { return part !== '' && part !== '.' && part !== '..'; });
  }
  // Copies [{file, path}] into `folder` one file at a time (a model's files need not all be in memory twice).
  function copyInto(folder, items) {
    return items.reduce(function (done, item) {
      return done.then(function () { return item.file.arrayBuffer(); }).then(function (buffer) {
        var parts = safeParts(item.path);
        var target = folder + '/' + parts.join('/');
        FS.mkdirTree(folder + (parts.length > 1 ? '/' + parts.slice(0, -1).join('/') : ''));
        FS.writeFile(target, new Uint8Array(buffer));
      });
    }, Promise.resolve()).then(function () { return folder; });
  }
  function problemOf(error) {
    return 'The browser could not read the chosen files (' + (error && error.message ? error.message : error) + ').';
  }
  // A model folder's files [{file, path relative to the folder}] named `name`: refused before reading when too big.
  function openFolder(name, items) {
    var bytes = items.reduce(function (sum, item) { return sum + item.file.size; }, 0);
    if (!Module.ccall('attnviz_accept_model_files', 'number', ['number'], [bytes])) return;
    copies += 1;
    copyInto(picked + '/' + copies + '/' + (safeParts(name)[0] || 'model'), items).then(
      function (folder) { arrived(folder, true); },
      function (error) { arrived('', true, problemOf(error)); });
  }
  // A session file: copied into the downloads folder, so that Save writes it there and it downloads again.
  function openSession(file) {
    copyInto(downloads, [{file: file, path: file.name}]).then(
      function () { arrived(downloads + '/' + safeParts(file.name).join('/'), false); },
      function (error) { arrived('', false, problemOf(error)); });
  }

  function hiddenInput(id, folder) {
    var input = document.createElement('input');
    input.type = 'file';
    input.id = id;
    input.hidden = true;
    if (folder) input.webkitdirectory = true; else input.accept = '.json,application/json';
    input.addEventListener('change', function () {
      var chosen = Array.prototype.slice.call(input.files);
      input.value = '';  // the same choice again is a change again
      if (chosen.length === 0) return arrived('', folder);
      if (!folder) return openSession(chosen[0]);
      var first = chosen[0].webkitRelativePath || chosen[0].name;
      openFolder(first.split('/')[0], chosen.map(function (file) {
        var path = file.webkitRelativePath || file.name;
        return {file: file, path: path.indexOf('/') >= 0 ? path.slice(path.indexOf('/') + 1) : path};
      }));
    });
    input.addEventListener('cancel', function () { arrived('', folder); });
    document.body.appendChild(input);
    return input;
  }

  // Every file under a dropped entry, with its path below `prefix`.
  function filesOfEntry(entry, prefix) {
    if (entry.isFile) {
      return new Promise(function (done, fail) {
        entry.file(function (file) { done([{file: file, path: prefix + entry.name}]); }, fail);
      });
    }
    var reader = entry.createReader();
    function readAll(found) {  // readEntries answers in batches until an empty one
      return new Promise(function (done, fail) {
        reader.readEntries(function (batch) { batch.length ? readAll(found.concat(batch)).then(done, fail) : done(found); }, fail);
      });
    }
    return readAll([]).then(function (children) {
      return Promise.all(children.map(function (child) { return filesOfEntry(child, prefix + entry.name + '/'); }));
    }).then(function (lists) { return [].concat.apply([], lists); });
  }
  function onDrop(event) {
    event.preventDefault();
    var entries = Array.prototype.slice.call(event.dataTransfer.items || [])
      .map(function (item) { return item.webkitGetAsEntry ? item.webkitGetAsEntry() : null; })
      .filter(function (entry) { return entry; });
    var dropped = Array.prototype.slice.call(event.dataTransfer.files);
    if (entries.length === 1 && entries[0].isDirectory) {  // a folder: its files, paths inside it
      var name = entries[0].name;
      filesOfEntry(entries[0], '').then(function (items) {
        openFolder(name, items.map(function (item) { return {file: item.file, path: item.path.slice(name.length + 1)}; }));
      }, function (error) { arrived('', true, problemOf(error)); });
    } else if (dropped.length === 1 && /\.json$/i.test(dropped[0].name)) {
      openSession(dropped[0]);
    } else if (dropped.length > 0) {  // a model folder's files
      openFolder('dropped', dropped.map(function (file) { return {file: file, path: file.name}; }));
    }
  }

  var inputs = {};
  function setUp() {
    inputs.file = hiddenInput('attnviz-open-file', false);
    inputs.folder = hiddenInput('attnviz-open-folder', true);
    window.addEventListener('dragover', function (event) { event.preventDefault(); });
    window.addEventListener('drop', onDrop);
    // Leaving the page (tab hidden, closed, navigated away): settings and the autosave go to storage now.
    document.addEventListener('visibilitychange', function () {
      if (document.visibilityState === 'hidden' && calledRun) Module.ccall('attnviz_page_hidden', null, [], []);
    });
  }
  // The page's script is loaded async: the document may be parsed already.
  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', setUp); else setUp();

  Module.preRun = [].concat(Module.preRun || [], [function () {
    FS.mkdirTree(downloads);
    FS.mkdirTree(picked);
    FS.mkdirTree(storage);
    FS.mount(IDBFS, {}, storage);
    addRunDependency('attnviz-storage');
    FS.syncfs(true, function (error) {  // the last visit's settings and autosave, before main reads them
      if (error) console.error('attnviz: the browser storage could not be read: ' + error);
      attnvizFiles.storageRead = !error;
      removeRunDependency('attnviz-storage');
    });
  }]);

  return {
    storageRead: false,
    choose: function (folder) { (folder ? inputs.folder : inputs.file).click(); },
    download: function (path) {
      var name = path.split('/').pop();
      var type = /\.png$/i.test(name) ? 'image/png' : /\.svg$/i.test(name) ? 'image/svg+xml' : /\.json$/i.test(name) ? 'application/json' : 'application/octet-stream';
      var url = URL.createObjectURL(new Blob([FS.readFile(path)], {type: type}));
      var link = document.createElement('a');
      link.href = url;
      link.download = name;
      document.body.appendChild(link);
      link.click();
      link.remove();
      setTimeout(function () { URL.revokeObjectURL(url); }, 60000);
    },
    // Settles once the storage holds everything written before the last sync() (tests/web waits on it).
    stored: Promise.resolve(),
    sync: function () {
      if (syncing) { syncAgain = true; return; }
      syncing = true;
      attnvizFiles.stored = new Promise(function (done) {
        FS.syncfs(false, function (error) {
          syncing = false;
          if (error) console.error('attnviz: the browser storage could not be written: ' + error);
          if (syncAgain) { syncAgain = false; attnvizFiles.sync(); attnvizFiles.stored.then(done); } else done();
        });
      });
    }
  };
})();
