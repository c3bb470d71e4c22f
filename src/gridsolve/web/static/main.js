// Tabs: the nonogram page and the calendar page, chosen by the URL's hash.

function show(name) {
  for (const page of document.querySelectorAll(".page")) page.hidden = page.id !== name;
  for (const tab of document.querySelectorAll(".tab")) {
    tab.classList.toggle("active", tab.dataset.tab === name);
  }
  document.dispatchEvent(new CustomEvent("tab", { detail: name }));
}

for (const tab of document.querySelectorAll(".tab")) {
  tab.addEventListener("click", () => { location.hash = tab.dataset.tab; });
}
window.addEventListener("hashchange", () => show(location.hash.slice(1) || "nonogram"));
show(location.hash.slice(1) === "calendar" ? "calendar" : "nonogram");
