import { AWARD_EMOJI_NAMES } from '../gitlab/emoji-names.js';
import { esc, Md } from './mrkdwn.js';

// GitLab names its emoji after gemojione; Slack after Unicode's short names. Most names are the same. Those that
// are not would show in Slack as a broken `:shortcode:`, so they are drawn as the Unicode character instead, and a
// name neither side is known to draw is written out in words.

/** GitLab names Slack spells differently or lacks, with the character they stand for. */
const CHARACTERS: Readonly<Record<string, string>> = {
  badminton: '🏸',
  champagne: '🍾',
  cheese: '🧀',
  city_dusk: '🌆',
  clown: '🤡',
  cowboy: '🤠',
  cricket: '🏏',
  crossed_fingers: '🤞',
  dagger: '🗡',
  desktop: '🖥',
  detective: '🕵',
  dove: '🕊',
  first_place: '🥇',
  flag_white: '🏳',
  fox: '🦊',
  goal: '🥅',
  hammer_pick: '⚒',
  hand_splayed: '🖐',
  head_bandage: '🤕',
  heart_exclamation: '❣',
  hugging: '🤗',
  island: '🏝',
  kiwi: '🥝',
  map: '🗺',
  medal: '🏅',
  menorah: '🕎',
  metal: '🤘',
  middle_finger: '🖕',
  milk: '🥛',
  money_mouth: '🤑',
  mood_bubble_lightning: '🗯',
  motorcycle: '🏍',
  nerd: '🤓',
  party_popper: '🎉',
  pen_ballpoint: '🖊',
  race_car: '🏎',
  rhino: '🦏',
  robot: '🤖',
  rofl: '🤣',
  rolling_eyes: '🙄',
  second_place: '🥈',
  skull_crossbones: '☠',
  slight_frown: '🙁',
  slight_smile: '🙂',
  thermometer_face: '🤒',
  thinking: '🤔',
  third_place: '🥉',
  timer: '⏲',
  tools: '🛠',
  umbrella2: '☂',
  unicorn: '🦄',
  upside_down: '🙃',
  vulcan: '🖖',
  white_sun_cloud: '🌥',
  wilted_rose: '🥀',
  zipper_mouth: '🤐',
};

/** GitLab's skin tones 1–5 are Slack's `skin-tone-2` to `skin-tone-6` (Slack's 1 is the default yellow). */
const TONED = /^(.+)_tone([1-5])$/;

/**
 * An emoji name from the server as Slack can draw it: its shortcode when Slack has the same name, its character
 * when Slack names it differently, otherwise the name in words, so no broken shortcode is ever shown.
 */
export function emojiMd(name: string): Md {
  const toned = TONED.exec(name);
  const base = toned ? (toned[1] as string) : name;
  const character = CHARACTERS[base];
  if (character) return esc(character);
  if (AWARD_EMOJI_NAMES.has(base)) {
    return Md.trusted(toned ? `:${base}::skin-tone-${Number(toned[2]) + 1}:` : `:${base}:`);
  }
  return esc(name.replace(/[_-]+/g, ' ').trim() || name);
}
