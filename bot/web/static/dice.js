/* The dice recipe of the README, in the browser: die i of game g is the first byte b < 252 of
   HMAC-SHA256(key = seed, message = "g:i") (then "g:i:1", "g:i:2", … if all 32 bytes are ≥ 252),
   shown as b % 6 + 1; the commitment is SHA-256(seed).

   Two engines compute it: the browser's WebCrypto (crypto.subtle), which exists only in secure
   contexts (HTTPS or localhost), and a small SHA-256/HMAC of our own for a page reached over plain
   HTTP — or when the address asks for it with ?verify=fallback. */
(function () {
  "use strict";

  var K = new Uint32Array([
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
    0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
    0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
    0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
    0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
    0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
    0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
    0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2
  ]);

  function rotr(x, n) { return (x >>> n) | (x << (32 - n)); }

  /* SHA-256 (FIPS 180-4) of a Uint8Array, as a Uint8Array of 32 bytes. */
  function sha256(bytes) {
    var length = bytes.length;
    var padded = new Uint8Array(((length + 9 + 63) >> 6) << 6);
    padded.set(bytes);
    padded[length] = 0x80;
    var view = new DataView(padded.buffer);
    view.setUint32(padded.length - 8, Math.floor(length / 0x20000000));
    view.setUint32(padded.length - 4, (length << 3) >>> 0);
    var H = new Uint32Array([
      0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19
    ]);
    var W = new Uint32Array(64);
    for (var offset = 0; offset < padded.length; offset += 64) {
      var i;
      for (i = 0; i < 16; i++) W[i] = view.getUint32(offset + 4 * i);
      for (i = 16; i < 64; i++) {
        var a15 = W[i - 15], a2 = W[i - 2];
        var s0 = rotr(a15, 7) ^ rotr(a15, 18) ^ (a15 >>> 3);
        var s1 = rotr(a2, 17) ^ rotr(a2, 19) ^ (a2 >>> 10);
        W[i] = (W[i - 16] + s0 + W[i - 7] + s1) | 0;
      }
      var a = H[0], b = H[1], c = H[2], d = H[3], e = H[4], f = H[5], g = H[6], h = H[7];
      for (i = 0; i < 64; i++) {
        var t1 = (h + (rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25)) + ((e & f) ^ (~e & g)) + K[i] + W[i]) | 0;
        var t2 = ((rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22)) + ((a & b) ^ (a & c) ^ (b & c))) | 0;
        h = g; g = f; f = e; e = (d + t1) | 0; d = c; c = b; b = a; a = (t1 + t2) | 0;
      }
      H[0] += a; H[1] += b; H[2] += c; H[3] += d; H[4] += e; H[5] += f; H[6] += g; H[7] += h;
    }
    var out = new Uint8Array(32);
    var outView = new DataView(out.buffer);
    for (var j = 0; j < 8; j++) outView.setUint32(4 * j, H[j]);
    return out;
  }

  /* HMAC-SHA256 (RFC 2104) with our own SHA-256. */
  function hmacSha256(key, message) {
    if (key.length > 64) key = sha256(key);
    var inner = new Uint8Array(64 + message.length);
    var outer = new Uint8Array(64 + 32);
    for (var i = 0; i < 64; i++) {
      var k = i < key.length ? key[i] : 0;
      inner[i] = k ^ 0x36;
      outer[i] = k ^ 0x5c;
    }
    inner.set(message, 64);
    outer.set(sha256(inner), 64);
    return sha256(outer);
  }

  function utf8(text) { return new TextEncoder().encode(text); }

  function fromHex(hex) {
    if (!/^([0-9a-fA-F]{2})*$/.test(hex)) throw new Error("not hex");
    var out = new Uint8Array(hex.length / 2);
    for (var i = 0; i < out.length; i++) out[i] = parseInt(hex.substr(2 * i, 2), 16);
    return out;
  }

  function toHex(bytes) {
    var text = "";
    for (var i = 0; i < bytes.length; i++) text += (bytes[i] < 16 ? "0" : "") + bytes[i].toString(16);
    return text;
  }

  /* An engine: digest(bytes) and keyed(seed) → mac(message), both answering promises of bytes. */
  var fallback = {
    name: "fallback",
    digest: function (bytes) { return Promise.resolve(sha256(bytes)); },
    keyed: function (seed) {
      return Promise.resolve(function (message) { return Promise.resolve(hmacSha256(seed, message)); });
    }
  };

  var webcrypto = {
    name: "webcrypto",
    digest: function (bytes) {
      return crypto.subtle.digest("SHA-256", bytes).then(function (d) { return new Uint8Array(d); });
    },
    keyed: function (seed) {
      return crypto.subtle.importKey("raw", seed, { name: "HMAC", hash: "SHA-256" }, false, ["sign"])
        .then(function (key) {
          return function (message) {
            return crypto.subtle.sign("HMAC", key, message).then(function (m) { return new Uint8Array(m); });
          };
        });
    }
  };

  function engine(forceFallback) {
    var subtle = window.isSecureContext && window.crypto && window.crypto.subtle;
    return !forceFallback && subtle ? webcrypto : fallback;
  }

  /* Die `index` (0-based) of game `game`, given a keyed mac. */
  function deriveDie(mac, game, index, attempt) {
    attempt = attempt || 0;
    var message = attempt === 0 ? game + ":" + index : game + ":" + index + ":" + attempt;
    return mac(utf8(message)).then(function (h) {
      for (var i = 0; i < h.length; i++) if (h[i] < 252) return (h[i] % 6) + 1;
      return deriveDie(mac, game, index, attempt + 1);
    });
  }

  window.CroupierDice = {
    sha256: sha256,
    hmacSha256: hmacSha256,
    fromHex: fromHex,
    toHex: toHex,
    utf8: utf8,
    engine: engine,
    engines: { webcrypto: webcrypto, fallback: fallback },
    deriveDie: deriveDie
  };
})();
