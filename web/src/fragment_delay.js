// How long the widget and the explorer wait after their last render before they write the
// URL fragment (and the host's mirror), in ms; the browser tests wait past it
// (tests/browser/harness.mjs). A held arrow key renders 30 times a second, and a history
// write for each cost the next key press about 0.25 ms in the bench (issue 31:
// history.replaceState's work in the browser overlaps the next press; with 200 ms between
// presses it cost none). Browsers also cap these writes: WebKit throws after 100 in 30 s
// (History.cpp, perStateObjectTimeSpanLimit), and Chromium drops them past 200 in 10 s.
// 300 ms apart keeps under both.
export const FRAGMENT_DELAY_MS = 300;
