// The board's sign-in inside Discord (bundled with Discord's Embedded App SDK into
// twixt/web/static/activity.js; `npm ci && npm run build` makes it again, byte for byte).
// board.js calls window.TwixtActivity.signIn(clientId) and then sends the access token with
// every request; the OAuth2 code is exchanged at our server, which holds the client secret.
import { DiscordSDK } from "@discord/embedded-app-sdk";

async function signIn(clientId) {
  const sdk = new DiscordSDK(clientId);
  await sdk.ready();
  const { code } = await sdk.commands.authorize({
    client_id: clientId,
    response_type: "code",
    state: "",
    prompt: "none",
    scope: ["identify"],
  });
  const response = await fetch("/api/activity/token", {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ code }),
  });
  const answer = await response.json();
  if (!response.ok) throw new Error(answer.error || String(response.status));
  await sdk.commands.authenticate({ access_token: answer.access_token });
  return { accessToken: answer.access_token, instanceId: sdk.instanceId, channelId: sdk.channelId };
}

window.TwixtActivity = { signIn };
