import { editDistance } from '../edit-distance.js';

// Emoji names a GitLab server accepts for award emoji (GitLab's gemojione names, the ones people use). An award
// of a name outside this list is refused before any call, with the closest names; a name the server itself
// refuses anyway ("is not included in the list") is told the same way after its answer.

const NAMES = `
+1 -1 100 1234 8ball a ab abc abcd accept aerial_tramway airplane alarm_clock alien ambulance anchor angel anger
angry anguished ant apple aquarius aries arrow_backward arrow_double_down arrow_double_up arrow_down
arrow_down_small arrow_forward arrow_heading_down arrow_heading_up arrow_left arrow_lower_left arrow_lower_right
arrow_right arrow_right_hook arrow_up arrow_up_down arrow_up_small arrow_upper_left arrow_upper_right
arrows_clockwise arrows_counterclockwise art articulated_lorry astonished athletic_shoe atm avocado b baby
baby_bottle baby_chick baby_symbol back bacon badminton baggage_claim balloon ballot_box_with_check bamboo banana
bangbang bank bar_chart barber baseball basketball bat bath bathtub battery bear bee beer beers beetle beginner
bell bento bicyclist bike bikini bird birthday black_circle black_heart black_joker black_nib
black_square_button blossom blowfish blue_book blue_car blue_heart blush boar boat bomb book bookmark
bookmark_tabs books boom boot bouquet bow bowling bowtie boxing_glove boy bread bride_with_veil bridge_at_night
briefcase broken_heart bug bulb bullettrain_front bullettrain_side burrito bus busstop bust_in_silhouette
busts_in_silhouette butterfly cactus cake calendar calling camel camera cancer candle candy capital_abcd
capricorn car card_index carousel_horse carrot cat cat2 cd chains champagne chart chart_with_downwards_trend
chart_with_upwards_trend checkered_flag cheese cherries cherry_blossom chestnut chicken children_crossing
chocolate_bar christmas_tree church cinema circus_tent city_dusk city_sunset cl clap clapper clinking_glass
clipboard clock1 clock10 clock11 clock12 clock2 clock3 clock4 clock5 clock6 clock7 clock8 clock9 closed_book
closed_lock_with_key closed_umbrella cloud clown clubs cocktail coffee coffin cold_sweat comet compass
computer confetti_ball confounded confused congratulations construction construction_worker convenience_store
cookie cool cop copyright corn couple couple_with_heart couplekiss cow cow2 cowboy crab crayon credit_card
crescent_moon cricket crocodile croissant crossed_fingers crossed_flags crown cry crying_cat_face
crystal_ball cucumber cupid curly_loop currency_exchange curry custard customs cyclone dagger dancer dancers
dango dart dash date deciduous_tree department_store desert desktop detective diamond_shape_with_a_dot_inside
diamonds disappointed disappointed_relieved dizzy dizzy_face do_not_litter dog dog2 dollar dolls dolphin door
doughnut dove dragon dragon_face dress dromedary_camel drooling_face droplet duck dvd e-mail eagle ear
ear_of_rice earth_africa earth_americas earth_asia egg eggplant eight eight_pointed_black_star
eight_spoked_asterisk electric_plug elephant email end envelope envelope_with_arrow euro european_castle
european_post_office evergreen_tree exclamation expressionless eye eyeglasses eyes face_palm factory
fallen_leaf family fast_forward fax fearful feet fencer ferris_wheel fire fire_engine fireworks first_place
fish fish_cake fishing_pole_and_fish fist five flag_white flags flashlight floppy_disk flower_playing_cards
flushed fog foggy football footprints fork_and_knife fountain four four_leaf_clover fox free fried_shrimp fries
frog frowning fuelpump full_moon full_moon_with_face game_die gear gem gemini ghost gift gift_heart girl
globe_with_meridians goal goat golf gorilla grapes green_apple green_book green_heart grey_exclamation
grey_question grimacing grin grinning guardsman guitar gun haircut hamburger hammer hammer_pick hamster
hand_splayed handbag handshake hash hatched_chick hatching_chick head_bandage headphones hear_no_evil heart
heart_decoration heart_exclamation heart_eyes heart_eyes_cat heartbeat heartpulse hearts heavy_check_mark
heavy_division_sign heavy_dollar_sign heavy_minus_sign heavy_multiplication_x heavy_plus_sign helicopter herb
hibiscus high_brightness high_heel hocho honey_pot horse horse_racing hospital hot_pepper hotdog hotel
hotsprings hourglass hourglass_flowing_sand house house_with_garden hugging hushed ice_cream ice_skate icecream
id ideograph_advantage imp inbox_tray incoming_envelope information_desk_person information_source innocent
interrobang iphone island izakaya_lantern jack_o_lantern japan japanese_castle japanese_goblin japanese_ogre
jeans joy joy_cat kaaba key keyboard keycap_ten kimono kiss kissing kissing_cat kissing_closed_eyes
kissing_heart kissing_smiling_eyes kiwi knife koala koko label large_blue_circle large_blue_diamond
large_orange_diamond last_quarter_moon laughing leaves ledger left_right_arrow leftwards_arrow_with_hook lemon
leo leopard level_slider libra light_rail link lion_face lips lipstick lizard lock lock_with_ink_pen lollipop
loop loud_sound loudspeaker love_hotel love_letter low_brightness lying_face m mag mag_right mahjong mailbox
mailbox_closed mailbox_with_mail mailbox_with_no_mail man man_with_gua_pi_mao man_with_turban mans_shoe map
maple_leaf mask massage meat_on_bone medal mega melon memo menorah mens metal metro microphone microscope
middle_finger milk milky_way minibus minidisc mobile_phone_off money_mouth money_with_wings moneybag monkey
monkey_face monorail mood_bubble_lightning mortar_board mosque motorcycle mount_fuji mountain
mountain_bicyclist mountain_cableway mountain_railway mouse mouse2 movie_camera moyai muscle mushroom
musical_keyboard musical_note musical_score mute nail_care name_badge nauseated_face necktie
negative_squared_cross_mark nerd neutral_face new new_moon new_moon_with_face newspaper ng night_with_stars
nine no_bell no_bicycles no_entry no_entry_sign no_good no_mobile_phones no_mouth no_pedestrians no_smoking
non-potable_water nose notebook notebook_with_decorative_cover notes nut_and_bolt o o2 ocean octagonal_sign
octopus oden office ok ok_hand ok_woman older_man older_woman on oncoming_automobile oncoming_bus
oncoming_police_car oncoming_taxi one open_file_folder open_hands open_mouth ophiuchus orange_book outbox_tray
owl ox package page_facing_up page_with_curl pager palm_tree pancakes panda_face paperclip parking
part_alternation_mark partly_sunny party_popper passport_control peach peanuts pear pen_ballpoint pencil
pencil2 penguin pensive performing_arts persevere person_frowning person_with_blond_hair
person_with_pouting_face phone pig pig2 pig_nose pill pineapple pisces pizza place_of_worship
point_down point_left point_right point_up point_up_2 police_car poodle poop popcorn post_office
postal_horn postbox potable_water potato pouch poultry_leg pound pouting_cat pray prayer_beads
princess printer punch purple_heart purse pushpin put_litter_in_its_place question rabbit rabbit2 race_car
racehorse radio radio_button rage railway_car rainbow raised_hand raised_hands raising_hand ram ramen rat
recycle red_car red_circle registered relaxed relieved reminder_ribbon repeat repeat_one restroom
revolving_hearts rewind rhino ribbon rice rice_ball rice_cracker rice_scene ring robot rocket rofl
roller_coaster rolling_eyes rooster rose rotating_light round_pushpin rowboat rugby_football runner
running_shirt_with_sash sa sagittarius sailboat sake sandal santa satellite satisfied saxophone school
school_satchel scissors scorpion scorpius scream scream_cat scroll seat second_place secret see_no_evil
seedling seven shallow_pan_of_food shamrock shark shaved_ice sheep shell shield ship shirt shopping_cart
shower shrimp shrug signal_strength six six_pointed_star ski skull skull_crossbones sleeping sleepy
slight_frown slight_smile slot_machine small_blue_diamond small_orange_diamond small_red_triangle
small_red_triangle_down smile smile_cat smiley smiley_cat smiling_imp smirk smirk_cat smoking snail snake
sneezing_face snowboarder snowflake snowman sob soccer soon sos sound space_invader spades spaghetti
sparkle sparkler sparkles sparkling_heart speak_no_evil speaker speech_balloon speedboat spider spider_web
spoon squid star star2 stars station statue_of_liberty steam_locomotive stew stopwatch straight_ruler
strawberry stuck_out_tongue stuck_out_tongue_closed_eyes stuck_out_tongue_winking_eye stuffed_flatbread
sun_with_face sunflower sunglasses sunny sunrise sunrise_over_mountains surfer sushi suspension_railway
sweat sweat_drops sweat_smile sweet_potato swimmer symbols synagogue syringe taco tada tanabata_tree
tangerine taurus taxi tea telephone telephone_receiver telescope tennis tent thermometer thermometer_face
thinking third_place thought_balloon three thumbsdown thumbsup ticket tiger tiger2 timer tired_face tm
toilet tokyo_tower tomato tongue tools top tophat track_next track_previous tractor traffic_light train
train2 tram triangular_flag_on_post triangular_ruler trident triumph trolleybus trophy tropical_drink
tropical_fish truck trumpet tulip tumbler_glass turkey turtle tv twisted_rightwards_arrows two two_hearts
two_men_holding_hands two_women_holding_hands u5272 u5408 u55b6 u6307 u6708 u6709 u6e80 u7121 u7533 u7981
u7a7a umbrella umbrella2 unamused underage unicorn unlock up upside_down v vertical_traffic_light vhs
vibration_mode video_camera video_game violin virgo volcano volleyball vs vulcan walking waning_crescent_moon
waning_gibbous_moon warning wastebasket watch water_buffalo water_polo watermelon wave wavy_dash
waxing_crescent_moon waxing_gibbous_moon wc weary wedding whale whale2 wheel_of_dharma wheelchair
white_check_mark white_circle white_flower white_square_button white_sun_cloud wilted_rose wind_blowing_face
wind_chime wine_glass wink wolf woman womans_clothes womans_hat womens worried wrench writing_hand x
yellow_heart yen yin_yang yum zap zero zipper_mouth zzz
`;

/** The award emoji names known to be accepted, without skin tones. */
export const AWARD_EMOJI_NAMES: ReadonlySet<string> = new Set(NAMES.split(/\s+/).filter((n) => n !== ''));

/** GitLab writes a skin tone as a suffix (`thumbsup_tone2`); the base name is what must be known. */
const TONE = /_tone[1-5]$/;

/** Whether the server is known to accept `name` (colons already stripped) as an award emoji. */
export function isKnownAwardEmoji(name: string): boolean {
  return AWARD_EMOJI_NAMES.has(name) || (TONE.test(name) && AWARD_EMOJI_NAMES.has(name.replace(TONE, '')));
}

/** Up to `max` known names closest to `name`: the likeliest typo fixes first, then names that contain it. */
export function closestAwardEmoji(name: string, max = 3): string[] {
  const typed = name.toLowerCase().replace(TONE, '').slice(0, 48);
  if (typed === '') return [];
  const limit = Math.max(2, Math.ceil(typed.length / 3));
  const scored: { name: string; score: number }[] = [];
  for (const known of AWARD_EMOJI_NAMES) {
    if (known.length < 2) continue;
    let score = Number.POSITIVE_INFINITY;
    if (Math.abs(known.length - typed.length) <= limit) score = editDistance(typed, known);
    // `heart` for `hearts_red`, `thumbsup` for `thumbs`: a name that starts with or contains the other.
    if (typed.length >= 3 && (known.startsWith(typed) || typed.startsWith(known))) score = Math.min(score, 1.5);
    else if (typed.length >= 4 && known.includes(typed)) score = Math.min(score, 2.5);
    // Typos rarely hit the first letter: `hart` is `heart` before it is `art`.
    if (known[0] !== typed[0]) score += 0.25;
    if (score <= limit) scored.push({ name: known, score });
  }
  scored.sort((a, b) => a.score - b.score || a.name.length - b.name.length || a.name.localeCompare(b.name));
  return scored.slice(0, max).map((s) => s.name);
}
