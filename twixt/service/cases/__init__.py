"""The use cases, one subject a module: what happens when a player asks (a challenge, a turn,
a claim, an export …), each over the shared desk (`twixt.service.desk`); tournaments in a
package of their own."""
