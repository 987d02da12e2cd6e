// Whether a password is strong enough, by the reference's two rules: a minimum length, and a
// minimum number of guesses a zxcvbn-style estimator thinks an attacker needs. The estimator's
// dictionaries are a few MB, so they load on the first check rather than at startup.
import type { ZxcvbnFactory } from '@zxcvbn-ts/core';

/** The reference's PASSWORD_MIN_LENGTH (register's password_min_length). */
export const MIN_PASSWORD_LENGTH = 6;
export const MAX_PASSWORD_LENGTH = 100;
/** The reference's PASSWORD_MIN_GUESSES (register's password_min_guesses). */
export const MIN_PASSWORD_GUESSES = 10_000;

/** The reference's answer to a weak password on the sign-up, reset and account-creation paths. */
export const PASSWORD_TOO_WEAK = 'The password is too weak.';

let estimator: Promise<ZxcvbnFactory> | undefined;

function loadEstimator(): Promise<ZxcvbnFactory> {
  estimator ??= (async () => {
    const [{ ZxcvbnFactory }, { adjacencyGraphs, dictionary }] = await Promise.all([import('@zxcvbn-ts/core'), import('@zxcvbn-ts/language-common')]);
    return new ZxcvbnFactory({ dictionary, graphs: adjacencyGraphs });
  })();
  return estimator;
}

/** True when the password is long enough and not guessable within the minimum number of guesses. */
export async function isStrongPassword(password: string): Promise<boolean> {
  const length = [...password].length;
  if (length < MIN_PASSWORD_LENGTH) return false;
  // The estimator's cost grows with length; anything this long is refused elsewhere anyway.
  if (length > MAX_PASSWORD_LENGTH) return true;
  return (await loadEstimator()).check(password).guesses >= MIN_PASSWORD_GUESSES;
}
