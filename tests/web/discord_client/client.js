// Discord's client, as far as an Activity sees it: the parent frame that answers the
// Embedded App SDK's messages (HANDSHAKE, then READY; AUTHORIZE with an OAuth2 code;
// AUTHENTICATE with the user behind the access token). Served by tests/web/test_activity_page.py
// at http://localhost:3333, the development client's origin the SDK accepts.
"use strict";
const HANDSHAKE = 0, FRAME = 1;
const params = new URLSearchParams(location.search);
const frame = document.getElementById("activity");
const said = [];
window.saidBySdk = said;

function reply(payload) {
  frame.contentWindow.postMessage([FRAME, payload], "*");
}

window.addEventListener("message", (event) => {
  if (event.source !== frame.contentWindow || !Array.isArray(event.data)) return;
  const [opcode, data] = event.data;
  if (opcode === HANDSHAKE) {
    said.push("HANDSHAKE");
    reply({ cmd: "DISPATCH", evt: "READY", nonce: null, data: { v: 1, config: {
      api_endpoint: "//discord.com/api", environment: "production" } } });
    return;
  }
  if (opcode !== FRAME) return;
  said.push(data.cmd);
  if (data.cmd === "AUTHORIZE") {
    reply({ cmd: "AUTHORIZE", evt: null, nonce: data.nonce, data: { code: params.get("code") } });
  } else if (data.cmd === "AUTHENTICATE") {
    reply({ cmd: "AUTHENTICATE", evt: null, nonce: data.nonce, data: {
      access_token: data.args.access_token, scopes: ["identify"], expires: "2100-01-01",
      user: { username: params.get("user"), discriminator: "0", id: params.get("user_id"),
              avatar: null, public_flags: 0, global_name: null },
      application: { description: "", id: params.get("client_id"), name: "TwixT" } } });
  }
});

frame.src = params.get("board");
