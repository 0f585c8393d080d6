//! Mealie (Python, FastAPI + SQLAlchemy + Alembic; SQLite by default, and PostgreSQL): `shopping_list_items`, as the
//! shopping list page's add box (the web app queues the item under a uuid it makes and sends it with
//! `POST /api/households/shopping/items/create-bulk`), "Add to list" from a recipe or from a week of the meal plan
//! (`POST /api/households/shopping/lists/{id}/recipe`, one request for every recipe in the dialog), Home Assistant's
//! to-do entity (`POST /api/households/shopping/items`), a household's Telegram bot (the same route), a weekly staples
//! script and a one-off import script (`create-bulk`) write it, and as households tick items off, edit, reorder and
//! delete them afterwards: one instance, 24 households, 30 lists, 60 days.
//! Read: mealie-recipes/mealie at b5643a9 (Oct 2024): alembic/versions/ 6b0f5f32d602 (initial tables), 44e8d670719d,
//! ff5f73b01a7a (the indexes), dded3119c1fe; mealie/db/models/household/shopping_list.py, db/models/_model_base.py
//! (`created_at`/`update_at` defaults), db/models/_model_utils/guid.py and datetime.py (`NaiveDateTime`),
//! db/migration_types.py, repos/repository_generic.py (`create_many`), routes/households/controller_shopping_lists.py,
//! schema/household/group_shopping_list.py, services/household_services/shopping_lists.py,
//! services/scheduler/tasks/delete_old_checked_shopping_list_items.py, core/settings/settings.py
//! (`DAILY_SCHEDULE_TIME`), services/parser_services/_base.py (`find_food_match`),
//! frontend/pages/shopping-lists/_id.vue, frontend/composables/use-shopping-list-item-actions.ts,
//! frontend/components/Domain/Recipe/RecipeDialogAddToShoppingList.vue; later versions found by code search:
//! mealie/alembic/versions/ 8e2a6621f001 (preserve deleted foods: `food_snapshot`) and a39c7f1826e3 (unit standards),
//! mealie/db/models/household/shopping_list.py and services/household_services/shopping_lists.py at 324148a
//! (`is_food` deprecated, merging by standard unit, one request for several recipes, on-hand foods skipped),
//! schema/household/group_shopping_list.py (0684f7e), frontend/app/composables/shopping-list-page/sub-composables/
//! use-shopping-list-crud.ts (8951aea) and use-shopping-list-item-actions.ts (2ddc169),
//! frontend/app/lib/api/user/group-shopping-lists.ts and
//! frontend/app/components/Domain/Recipe/RecipeDialogAddToShoppingList.vue (1f94c3a); home-assistant/core
//! homeassistant/components/mealie/todo.py (1944e0d).
//! On a create (`bulk_create_items`): the request's items are merged among themselves, then each merges into an
//! unchecked item of the list with the same food (and food snapshot) and the same or a convertible unit, or with the
//! same note when it has no food: that item's quantity grows (converted into its unit), the notes are joined with
//! " | ", `update_at` moves, and no row is written. Else a row: `id` the uuid the web app sent, else a fresh uuid4;
//! `shopping_list_id`; `is_ingredient` true and `is_food` false (defaults no path sets any more); `position` as sent:
//! the web app's largest position on the list + 1, Home Assistant's last item's + 1, else 0 (recipes, the bot and the
//! scripts send none); `checked` false (the import sends its ticked-off items checked); `quantity` as sent: 0 from the
//! add box unless one is typed, the ingredient's quantity × scale from a recipe (0 for an ingredient kept as text), 1
//! (the default) from Home Assistant, the bot and the scripts; `note` the typed text (lower case as Home Assistant
//! hears it), the ingredient's note, or an unparsed ingredient's whole text; `unit_id`/`food_id` as sent; `label_id`
//! the one sent or picked, else the food's, else that of the food the fuzzy matcher finds for the text;
//! `food_snapshot` NULL (only a food deleted meanwhile sets it); `created_at`/`update_at` Python's UTC now at the
//! insert, microseconds apart, the rows of one request some tens of µs apart.
//! Later: ticking an item off (the web app's queued bulk PUT, Home Assistant's to-do) sets `checked` and `update_at`
//! (the toast's undo clears it again); quantities are edited; a drag renumbers the unchecked items 0..n (`update_at`
//! of those that moved); a merge from a later add grows an item; deletes are real DELETEs: one item, "delete checked"
//! after a trip in some households, and the daily task at 23:45 (server time, UTC) keeping each list's 100 most
//! recently updated checked items.
//! Retries: the web app's offline queue sends a create again under the same id: it merges into the row (a quantity
//! doubled, if it had one) or fails on the primary key, and makes no row. Rows come from requests that overlap: each
//! reads the list's unchecked items before it writes, so a second request that reads before the first commits creates
//! every item again with fresh ids: a second click on "Add to list" 40-400 ms later while the first request (label
//! matching, 0.3-2 s) runs; a Home Assistant automation firing twice (60 ms-1.5 s apart); the bot's `requests` timeout
//! (10 s) and urllib3's immediate retry while the first request has not committed (the two rows land within seconds,
//! in either order: the later one is marked); the bot's queue sending again 25-70 minutes after a 502, once the shopper
//! has ticked the first off (hidden: it reads as the item added again). A request that comes after the first committed
//! merges instead (a quantity doubled, a recipe's scale 2). Four double sends in the last day. Extra rows get deleted
//! when someone notices, ticked off with their originals, or trimmed; a row is marked only while its original is in
//! the table: about 1.8% of the rows.
//! Legitimate repeats: staples added again once the last one is ticked off (the bot's and the staples script's rows
//! equal last week's; the web app's differ in position), a recipe added again, and the import's ticked-off history
//! (checked items never merge, so one request writes "Milk" three times).
//! Guessed: the households, lists, rates, rhythms and time zones; the foods, labels, units and recipes; which
//! households keep spices and oils on hand; the bot (its timeout, its queue), the staples and import scripts (what
//! they send); Home Assistant sending no quantity; how long requests take; the unit two convertible units merge into
//! (the existing item's); an unparsed ingredient's quantity (0); ids written with dashes on both engines (Mealie
//! writes 32 hex digits on SQLite; PostgreSQL prints uuids dashed, and the marks must match what a scan prints); the
//! server in UTC; no food deleted in the window.
use std::cmp::Reverse;
use std::collections::BinaryHeap;

use super::{DAY, Fixture, HOUR, MINUTE, Mark, Rng, SECOND, T0, V};
use crate::common::Engine;

pub const ENGINES: &[Engine] = &[Engine::Sqlite, Engine::Postgres];

/// The table as Alembic's migrations leave it on a fresh install: created by 6b0f5f32d602 (initial tables), its
/// indexes added by ff5f73b01a7a, `food_snapshot` added by 8e2a6621f001 (`batch_alter_table`, which on SQLite is a
/// plain ADD COLUMN), in the DDL SQLAlchemy emits per dialect (`GUID` is CHAR(32) on SQLite and UUID on PostgreSQL,
/// `NaiveDateTime` a zone-less DATETIME / TIMESTAMP). The foreign keys to shopping_lists, ingredient_units,
/// ingredient_foods and multi_purpose_labels are left out with their tables.
pub fn ddl(engine: Engine) -> String {
    let (time, guid) = match engine {
        Engine::Sqlite => ("DATETIME", "CHAR(32)"),
        Engine::Postgres => ("TIMESTAMP WITHOUT TIME ZONE", "UUID"),
        Engine::MySql => unreachable!("Mealie runs on SQLite and PostgreSQL"),
    };
    format!(
        "CREATE TABLE shopping_list_items (
\tcreated_at {time}, 
\tupdate_at {time}, 
\tid {guid} NOT NULL, 
\tshopping_list_id {guid}, 
\tis_ingredient BOOLEAN, 
\tposition INTEGER NOT NULL, 
\tchecked BOOLEAN, 
\tquantity FLOAT, 
\tnote VARCHAR, 
\tis_food BOOLEAN, 
\tunit_id {guid}, 
\tfood_id {guid}, 
\tlabel_id {guid}, 
\tPRIMARY KEY (id)
);
CREATE INDEX ix_shopping_list_items_created_at ON shopping_list_items (created_at);
CREATE INDEX ix_shopping_list_items_position ON shopping_list_items (position);
CREATE INDEX ix_shopping_list_items_shopping_list_id ON shopping_list_items (shopping_list_id);
ALTER TABLE shopping_list_items ADD COLUMN food_snapshot JSON"
    )
}

const COLUMNS: &str = "created_at update_at id shopping_list_id is_ingredient position checked quantity note is_food \
    unit_id food_id label_id food_snapshot";

const NOW: i64 = T0;
const DAYS: i64 = 60;
const START: i64 = T0 - DAYS * DAY;
/// `MAX_CHECKED_ITEMS` of the daily `delete_old_checked_list_items` task.
const MAX_CHECKED: usize = 100;
/// "No unit" / "no label" in the tables below.
const NO: usize = usize::MAX;

// Labels (group-level `multi_purpose_labels`).
const PRODUCE: usize = 0;
const DAIRY: usize = 1;
const MEAT: usize = 2;
const BAKERY: usize = 3;
const PANTRY: usize = 4;
const FROZEN: usize = 5;
const DRINKS: usize = 6;
const SPICES: usize = 7;
const SNACKS: usize = 8;
const DELI: usize = 9;
const HOUSEHOLD: usize = 10;
const CARE: usize = 11;
const LABELS: usize = 12;

// Units (group-level `ingredient_units`): name, family (1 volume, 2 mass, 0 none), size in ml or g.
const CUP: usize = 0;
const TBSP: usize = 1;
const TSP: usize = 2;
const ML: usize = 3;
const G: usize = 5;
const KG: usize = 6;
const LB: usize = 7;
const CAN: usize = 9;
const CLOVE: usize = 10;
const BUNCH: usize = 12;
#[rustfmt::skip]
const UNITS: [(&str, &str, u8, f64); 13] = [
    ("cup", "cups", 1, 236.588), ("tablespoon", "tablespoons", 1, 14.787), ("teaspoon", "teaspoons", 1, 4.929),
    ("milliliter", "milliliters", 1, 1.0), ("liter", "liters", 1, 1000.0), ("gram", "grams", 2, 1.0),
    ("kilogram", "kilograms", 2, 1000.0), ("pound", "pounds", 2, 453.592), ("ounce", "ounces", 2, 28.35),
    ("can", "cans", 0, 0.0), ("clove", "cloves", 0, 0.0), ("package", "packages", 0, 0.0), ("bunch", "bunches", 0, 0.0),
];

/// Foods (group-level `ingredient_foods`): name, label, the unit recipes give it, the quantities recipes call for.
#[rustfmt::skip]
const FOODS: &[(&str, usize, usize, &[f64])] = &[
    ("onion", PRODUCE, NO, &[1.0, 1.0, 2.0, 0.5]), ("garlic", PRODUCE, CLOVE, &[2.0, 3.0, 4.0]),
    ("carrot", PRODUCE, NO, &[1.0, 2.0, 3.0]), ("celery", PRODUCE, NO, &[1.0, 2.0]),
    ("potato", PRODUCE, LB, &[1.0, 2.0]), ("tomato", PRODUCE, NO, &[1.0, 2.0, 4.0]),
    ("red bell pepper", PRODUCE, NO, &[1.0, 2.0]), ("lemon", PRODUCE, NO, &[1.0, 0.5]),
    ("lime", PRODUCE, NO, &[1.0, 2.0]), ("cilantro", PRODUCE, BUNCH, &[1.0, 0.5]),
    ("parsley", PRODUCE, BUNCH, &[0.5, 1.0]), ("baby spinach", PRODUCE, G, &[150.0, 200.0, 100.0]),
    ("zucchini", PRODUCE, NO, &[1.0, 2.0]), ("mushrooms", PRODUCE, G, &[250.0, 400.0]),
    ("avocado", PRODUCE, NO, &[1.0, 2.0]), ("ginger", PRODUCE, TBSP, &[1.0, 2.0]),
    ("milk", DAIRY, CUP, &[1.0, 0.5, 2.0]), ("butter", DAIRY, TBSP, &[2.0, 4.0, 1.0]),
    ("eggs", DAIRY, NO, &[2.0, 3.0, 4.0, 1.0]), ("heavy cream", DAIRY, CUP, &[0.5, 1.0]),
    ("parmesan", DAIRY, G, &[50.0, 30.0]), ("cheddar cheese", DAIRY, CUP, &[1.0, 2.0]),
    ("greek yogurt", DAIRY, CUP, &[0.5, 1.0]), ("sour cream", DAIRY, TBSP, &[2.0, 4.0]),
    ("chicken breast", MEAT, LB, &[1.0, 1.5, 2.0]), ("ground beef", MEAT, LB, &[1.0, 2.0]),
    ("bacon", MEAT, G, &[200.0, 250.0]), ("salmon fillet", MEAT, G, &[400.0, 600.0]),
    ("pork shoulder", MEAT, KG, &[1.5, 2.0]), ("chicken thighs", MEAT, LB, &[2.0, 1.5]),
    ("tortillas", BAKERY, NO, &[8.0, 6.0]), ("burger buns", BAKERY, NO, &[4.0, 6.0]),
    ("all-purpose flour", PANTRY, CUP, &[2.0, 1.0, 3.0]), ("sugar", PANTRY, CUP, &[1.0, 0.5]),
    ("brown sugar", PANTRY, CUP, &[0.5, 1.0]), ("rice", PANTRY, CUP, &[1.0, 2.0]),
    ("spaghetti", PANTRY, G, &[500.0, 400.0]), ("penne", PANTRY, G, &[500.0]),
    ("chicken broth", PANTRY, CUP, &[2.0, 4.0, 1.0]), ("crushed tomatoes", PANTRY, CAN, &[1.0, 2.0]),
    ("black beans", PANTRY, CAN, &[1.0, 2.0]), ("coconut milk", PANTRY, CAN, &[1.0]),
    ("soy sauce", PANTRY, TBSP, &[2.0, 3.0]), ("honey", PANTRY, TBSP, &[1.0, 2.0]),
    ("baking powder", PANTRY, TSP, &[1.0, 2.0]), ("vanilla extract", PANTRY, TSP, &[1.0]),
    ("olive oil", PANTRY, TBSP, &[2.0, 1.0, 3.0]), ("vegetable oil", PANTRY, TBSP, &[2.0, 1.0]),
    ("salt", SPICES, TSP, &[1.0, 0.5]), ("black pepper", SPICES, TSP, &[0.5, 0.25]),
    ("cumin", SPICES, TSP, &[1.0, 2.0]), ("smoked paprika", SPICES, TSP, &[1.0, 2.0]),
    ("chili powder", SPICES, TBSP, &[1.0]), ("dried oregano", SPICES, TSP, &[1.0]),
    ("cinnamon", SPICES, TSP, &[1.0, 0.5]), ("frozen peas", FROZEN, CUP, &[1.0]),
    ("orange juice", DRINKS, ML, &[250.0]), ("coffee", DRINKS, NO, &[1.0]),
];

/// Things people type into the add box, say to their voice assistant or send the bot: the text, the label the food
/// matcher finds for it (`find_matching_label` on the display text), the label people pick by hand when it finds none.
#[rustfmt::skip]
const NOTES: &[(&str, usize, usize)] = &[
    ("Milk", DAIRY, NO), ("Eggs", DAIRY, NO), ("Bread", BAKERY, NO), ("Bananas", PRODUCE, NO), ("Coffee", DRINKS, NO),
    ("Butter", DAIRY, NO), ("Yogurt", DAIRY, NO), ("Apples", PRODUCE, NO), ("Cheese", DAIRY, NO),
    ("Chicken", MEAT, NO), ("Pasta", PANTRY, NO), ("Rice", PANTRY, NO), ("Tomatoes", PRODUCE, NO),
    ("Onions", PRODUCE, NO), ("Beer", DRINKS, NO), ("Sparkling water", DRINKS, NO), ("Orange juice", DRINKS, NO),
    ("Ice cream", FROZEN, NO), ("Frozen pizza", FROZEN, NO), ("Chips", SNACKS, NO), ("Cereal", PANTRY, NO),
    ("Oat milk", DAIRY, NO), ("Avocados", PRODUCE, NO), ("Lemons", PRODUCE, NO), ("Garlic", PRODUCE, NO),
    ("Hummus", DELI, NO), ("Ham", DELI, NO), ("Tortillas", BAKERY, NO), ("Peanut butter", PANTRY, NO),
    ("Jam", PANTRY, NO), ("Granola bars", SNACKS, NO), ("Crackers", SNACKS, NO), ("Cucumber", PRODUCE, NO),
    ("Toilet paper", NO, HOUSEHOLD), ("Paper towels", NO, HOUSEHOLD), ("Dish soap", NO, HOUSEHOLD),
    ("Trash bags", NO, HOUSEHOLD), ("Laundry detergent", NO, HOUSEHOLD), ("Sponges", NO, HOUSEHOLD),
    ("Cat food", NO, NO), ("Dog treats", NO, NO), ("Coffee filters", NO, HOUSEHOLD), ("Batteries AA", NO, NO),
    ("Shampoo", NO, CARE), ("Toothpaste", NO, CARE), ("Tissues", NO, CARE), ("Diapers size 4", NO, CARE),
    ("Sunscreen", NO, CARE), ("Light bulbs", NO, NO),
];
/// Notes recipe ingredients carry, by the food's label.
fn ing_note(r: &mut Rng, label: usize) -> &'static str {
    let notes: &[&'static str] = match label {
        PRODUCE => &["diced", "minced", "finely chopped", "sliced", "juiced"],
        DAIRY => &["softened", "grated", "divided", "at room temperature"],
        MEAT => &["diced", "cut into strips", "boneless, skinless"],
        SPICES => &["to taste", "divided"],
        _ => &["divided", "plus more for serving"],
    };
    if r.chance(0.25) { r.one(notes) } else { "" }
}

/// One shopping list: household, its UTC offset, web adds a day, Home Assistant adds a day, bot adds a day, recipes
/// added a week, the weekly meal-plan add, the weekly staples script, shopping trips a week, the chance the checked
/// items are deleted after a trip, drag reordering, labels picked by hand.
#[derive(Clone, Copy)]
struct Spec {
    house: usize,
    tz: i64,
    web: f64,
    ha: f64,
    bot: f64,
    recipes: f64,
    plan: bool,
    cron: bool,
    trips: f64,
    clear: f64,
    reorder: bool,
    labels: bool,
}

/// A list's figures in `Spec`'s order, one tuple a list.
type SpecRow = (usize, i64, f64, f64, f64, f64, bool, bool, f64, f64, bool, bool);

#[rustfmt::skip]
const SPECS: [SpecRow; 30] = [
    (0, 2, 4.5, 1.2, 0.0, 1.5, true, false, 2.5, 0.0, true, true),
    (0, 2, 0.4, 0.0, 0.0, 0.0, false, false, 0.4, 0.0, false, true),
    (1, -4, 3.0, 0.0, 1.5, 1.5, false, true, 2.0, 0.0, false, false),
    (1, -4, 0.6, 0.0, 0.3, 0.0, false, false, 0.3, 0.0, false, false),
    (2, 1, 5.0, 0.0, 0.0, 2.5, true, false, 3.0, 0.6, true, true),
    (3, -7, 2.5, 1.5, 0.0, 1.0, false, false, 1.5, 0.0, false, false),
    (4, 2, 3.0, 0.0, 2.0, 1.0, false, false, 2.0, 0.0, false, true),
    (5, -5, 2.0, 0.0, 0.0, 2.5, true, false, 1.0, 0.5, false, false),
    (6, 10, 3.0, 0.8, 0.0, 1.5, false, true, 2.0, 0.0, true, false),
    (7, 2, 1.5, 0.0, 0.0, 0.5, false, false, 1.0, 0.0, false, false),
    (8, 1, 4.0, 0.0, 0.0, 2.0, true, false, 2.5, 0.0, false, true),
    (8, 1, 0.5, 0.0, 0.0, 0.0, false, false, 0.3, 0.0, false, true),
    (9, -4, 2.5, 1.0, 0.0, 1.0, false, false, 1.5, 0.3, false, false),
    (10, 2, 3.5, 0.0, 0.0, 1.5, false, false, 2.0, 0.0, true, false),
    (11, -6, 2.0, 0.0, 0.0, 3.0, true, false, 1.0, 0.0, false, false),
    (12, 2, 2.0, 0.0, 2.5, 0.5, false, false, 2.0, 0.0, false, true),
    (12, 2, 0.3, 0.0, 0.4, 0.0, false, false, 0.2, 0.0, false, true),
    (13, 0, 3.0, 1.0, 0.0, 1.0, false, false, 2.0, 0.7, false, false),
    (14, -7, 2.5, 0.0, 0.0, 2.0, true, false, 1.5, 0.0, false, false),
    (15, 2, 4.0, 0.0, 0.0, 1.0, false, false, 3.0, 0.0, true, true),
    (15, 2, 0.5, 0.0, 0.0, 0.0, false, false, 0.5, 0.0, false, true),
    (16, -5, 1.5, 0.0, 0.0, 1.5, false, false, 1.0, 0.0, false, false),
    (17, 1, 3.0, 1.5, 0.0, 1.0, false, false, 2.0, 0.0, false, false),
    (18, 2, 2.0, 0.0, 0.0, 2.0, true, false, 1.5, 0.5, false, false),
    (19, -4, 3.5, 0.0, 0.0, 1.0, false, false, 2.0, 0.0, false, false),
    (19, -4, 0.4, 0.0, 0.0, 0.0, false, false, 0.3, 0.0, false, false),
    (20, 2, 2.5, 0.0, 0.0, 1.5, false, false, 1.5, 0.0, false, true),
    (21, -8, 1.0, 0.0, 0.0, 0.5, false, false, 0.7, 0.0, false, false),
    (22, 1, 2.0, 0.6, 0.0, 1.0, false, false, 1.5, 0.4, false, false),
    (23, 2, 0.3, 0.0, 0.0, 0.0, false, false, 0.3, 0.0, false, false),
];
/// Adds by local hour.
const RHYTHM: [u64; 24] = [0, 0, 0, 0, 0, 0, 1, 3, 4, 3, 2, 2, 3, 2, 2, 3, 4, 6, 8, 7, 6, 4, 2, 1];

/// What one create request carries for one item (and so what the row is born with).
#[derive(Clone, PartialEq)]
struct Line {
    note: String,
    food: Option<usize>,
    unit: Option<usize>,
    label: Option<usize>,
    qty: f64,
    pos: i64,
    checked: bool,
}

struct Entry {
    id: String,
    at: i64,
    upd: i64,
    born: Line,
    note: String,
    unit: Option<usize>,
    qty: f64,
    pos: i64,
    checked: bool,
    live: bool,
    /// A new intent (not the extra row of a retry).
    intent: bool,
    retry_of: Option<usize>,
    hidden: bool,
}

struct Recipe {
    /// (food, quantity, note)
    ings: Vec<(usize, f64, &'static str)>,
    parsed: bool,
}

/// Where a request's row repeats another: a request of the same batch, or a row already made.
#[derive(Clone, Copy, PartialEq)]
enum Dup {
    No,
    Of(usize),
    Row(usize),
}

struct Req {
    read: i64,
    commit: i64,
    lines: Vec<Line>,
    copy: Dup,
}

enum Act {
    Create(Line),
    Merge(usize, f64, String, Option<usize>),
}

#[derive(Clone)]
enum Ev {
    /// The add box (the item, whether the offline queue sends it again).
    Web(bool),
    /// Home Assistant's to-do entity: the note, a second call this many µs later (an automation firing twice).
    Ha(usize, i64),
    /// The Telegram bot: the note, 0 plain, 1 read timeout and urllib3's retry, 2 a 502 and its queue's resend.
    Bot(usize, u8),
    /// "Add to list" from a recipe or the meal plan's week: (recipe, scale) each, a second click this many µs later.
    Recipe(Vec<(usize, f64)>, i64),
    /// A household moving its old list over.
    Import,
    /// The staples script's weekly `create-bulk`.
    Cron,
    Trip,
    Clear,
    Trim,
    Reorder,
    Edit(usize),
    Drop(usize),
    /// Someone notices a doubled item: (extra, original).
    Notice(usize, usize),
    /// The web app's offline queue sending a create again (same client id).
    Resend(usize),
    /// The bot's queue sending a create again.
    Late(usize),
}

fn opt(x: usize) -> Option<usize> {
    (x != NO).then_some(x)
}

fn count(r: &mut Rng, mean: f64) -> usize {
    if mean <= 0.0 {
        return 0;
    }
    let k = ((mean * 3.0).ceil() as usize).max(3);
    (0..k).filter(|_| r.chance(mean / k as f64)).count()
}

/// A time on local day `d` (UTC midnight `day0`), at an hour drawn from `weights`.
fn local(r: &mut Rng, day0: i64, tz: i64, weights: &[u64; 24]) -> i64 {
    let total: u64 = weights.iter().sum();
    let mut x = r.below(total);
    let mut h = 0;
    while x >= weights[h] {
        x -= weights[h];
        h += 1;
    }
    day0 - tz * HOUR + h as i64 * HOUR + r.range(0, 3_599_999_999)
}

fn frac(q: f64) -> String {
    let whole = q.trunc() as i64;
    let part = match ((q - q.trunc()) * 100.0).round() as i64 {
        25 => "1/4",
        50 => "1/2",
        75 => "3/4",
        _ => "",
    };
    match (whole, part) {
        (0, p) => p.to_string(),
        (w, "") => w.to_string(),
        (w, p) => format!("{w} {p}"),
    }
}

fn family(u: Option<usize>) -> Option<(u8, f64)> {
    u.map(|u| (UNITS[u].2, UNITS[u].3)).filter(|f| f.0 != 0)
}

/// `can_merge` for an unchecked item of the list and a new line: same food (and snapshot), the same unit or two
/// units of one standard family, and the same note when there is no food.
fn mergeable(food: Option<usize>, unit: Option<usize>, note: &str, l: &Line) -> bool {
    if food != l.food || l.checked {
        return false;
    }
    if unit != l.unit {
        match (family(unit), family(l.unit)) {
            (Some(a), Some(b)) if a.0 == b.0 => {}
            _ => return false,
        }
    }
    food.is_some() || note == l.note
}

/// `merge_items`: the quantity added (converted into the kept unit), the notes joined.
fn merged(qty: f64, unit: Option<usize>, note: &str, l: &Line) -> (f64, String, Option<usize>) {
    let add = match (family(unit), family(l.unit)) {
        (Some(a), Some(b)) if unit != l.unit => l.qty * b.1 / a.1,
        _ => l.qty,
    };
    let note = if l.note.is_empty() || note == l.note || note.split(" | ").any(|n| n == l.note) {
        note.to_string()
    } else if note.is_empty() {
        l.note.clone()
    } else {
        format!("{note} | {}", l.note)
    };
    (qty + add, note, unit)
}

struct Sim {
    spec: Spec,
    items: Vec<Entry>,
    evs: Vec<Ev>,
    heap: BinaryHeap<Reverse<(i64, usize)>>,
    notes: Vec<usize>,
    foods: Vec<usize>,
    /// Recipes this household cooks.
    cooks: Vec<usize>,
    on_hand: bool,
    /// Pending web resends' lines.
    sent: Vec<(usize, Line)>,
}

impl Sim {
    fn at(&mut self, t: i64, e: Ev) {
        self.evs.push(e);
        self.heap.push(Reverse((t, self.evs.len() - 1)));
    }

    fn live(&self) -> impl Iterator<Item = usize> + '_ {
        (0..self.items.len()).filter(|&i| self.items[i].live)
    }

    fn next_pos(&self) -> i64 {
        self.live().map(|i| self.items[i].pos).max().map_or(0, |p| p + 1)
    }

    fn note_line(&self, n: usize, qty: f64, pos: i64, lower: bool, labels: bool) -> Line {
        let (text, found, hand) = NOTES[n];
        let label = opt(found).or(if labels { opt(hand) } else { None });
        let note = if lower { text.to_lowercase() } else { text.to_string() };
        Line { note, food: None, unit: None, label, qty, pos, checked: false }
    }

    /// A note not on the list (unticked) now.
    fn fresh_note(&self, r: &mut Rng) -> usize {
        let open = |n: usize| {
            self.live().any(|i| {
                let it = &self.items[i];
                !it.checked && it.born.food.is_none() && it.note.eq_ignore_ascii_case(NOTES[n].0)
            })
        };
        let k = r.below(self.notes.len() as u64) as usize;
        let mut all = self.notes[k..].iter().chain(&self.notes[..k]).copied().chain(0..NOTES.len());
        all.find(|&n| !open(n)).unwrap_or(self.notes[k])
    }

    fn pick_note(&self, r: &mut Rng) -> usize {
        if r.chance(0.75) {
            self.notes[r.skewed(self.notes.len() as u64) as usize]
        } else {
            r.below(NOTES.len() as u64) as usize
        }
    }

    /// `bulk_create_items` against the list as it is now: the request's lines consolidated, each merged into an
    /// unchecked item it can merge with, else created.
    fn plan(&self, lines: &[Line]) -> Vec<Act> {
        let mut cons: Vec<Line> = Vec::new();
        for l in lines {
            match cons.iter_mut().find(|c| !c.checked && mergeable(c.food, c.unit, &c.note, l)) {
                Some(c) => {
                    let (q, n, u) = merged(c.qty, c.unit, &c.note, l);
                    (c.qty, c.note, c.unit) = (q, n, u);
                }
                None => cons.push(l.clone()),
            }
        }
        cons.into_iter()
            .filter(|l| l.qty >= 0.0)
            .map(|l| {
                let target = self.live().find(|&x| {
                    let it = &self.items[x];
                    !it.checked && mergeable(it.born.food, it.unit, &it.note, &l)
                });
                match target {
                    Some(x) => {
                        let it = &self.items[x];
                        let (q, n, u) = merged(it.qty, it.unit, &it.note, &l);
                        Act::Merge(x, q, n, u)
                    }
                    None => Act::Create(l),
                }
            })
            .collect()
    }

    /// Requests that overlap in time: each reads the list's unchecked items when it starts and writes when it commits,
    /// so two that overlap both create what neither saw (and the later merge overwrites the earlier).
    fn batch(&mut self, r: &mut Rng, reqs: Vec<Req>) -> Vec<Vec<Option<usize>>> {
        let mut order: Vec<(i64, u8, usize)> = Vec::new();
        for (i, q) in reqs.iter().enumerate() {
            order.push((q.read, 0, i));
            order.push((q.commit, 1, i));
        }
        order.sort();
        let mut plans: Vec<Vec<Act>> = (0..reqs.len()).map(|_| Vec::new()).collect();
        let mut made: Vec<Vec<Option<usize>>> = vec![Vec::new(); reqs.len()];
        for (t, kind, i) in order {
            if kind == 0 {
                plans[i] = self.plan(&reqs[i].lines);
                continue;
            }
            let acts = std::mem::take(&mut plans[i]);
            let mut at = t - r.range(1_500, 4_000);
            let mut merged_at = t + r.range(800, 3_000);
            for act in acts {
                match act {
                    Act::Create(l) => {
                        at += r.range(15, 60);
                        let item = Entry {
                            id: r.uuid(),
                            at,
                            upd: at + r.range(2, 12),
                            note: l.note.clone(),
                            unit: l.unit,
                            qty: l.qty,
                            pos: l.pos,
                            checked: l.checked,
                            born: l,
                            live: true,
                            intent: reqs[i].copy == Dup::No,
                            retry_of: None,
                            hidden: false,
                        };
                        self.items.push(item);
                        let x = self.items.len() - 1;
                        made[i].push(Some(x));
                        if r.chance(0.05) {
                            let e = at + r.range(60, 30 * 3600) * SECOND;
                            self.at(e, Ev::Edit(x));
                        }
                        if r.chance(0.03) {
                            let e = at + r.range(30, 2 * 86_400) * SECOND;
                            self.at(e, Ev::Drop(x));
                        }
                    }
                    Act::Merge(x, q, n, u) => {
                        merged_at += r.range(20, 80);
                        let it = &mut self.items[x];
                        if it.live && (it.qty != q || it.note != n || it.unit != u) {
                            (it.qty, it.note, it.unit, it.upd) = (q, n, u, merged_at);
                        }
                        made[i].push(None);
                    }
                }
            }
        }
        // The extra rows: per line, the later of the two rows the two attempts made.
        for (i, q) in reqs.iter().enumerate() {
            let pairs: Vec<(usize, usize)> = match q.copy {
                Dup::No => Vec::new(),
                Dup::Of(j) => made[i].iter().zip(&made[j]).filter_map(|(a, b)| Some(((*a)?, (*b)?))).collect(),
                Dup::Row(o) => made[i].iter().flatten().map(|&a| (a, o)).collect(),
            };
            for (a, b) in pairs {
                let (early, late) = if self.items[a].at < self.items[b].at { (a, b) } else { (b, a) };
                self.items[early].intent = true;
                self.items[late].intent = false;
                self.items[late].retry_of = Some(early);
                self.items[late].hidden = matches!(q.copy, Dup::Row(_));
                if r.chance(0.35) {
                    let e = self.items[late].at + r.range(20, 7_200) * SECOND;
                    self.at(e, Ev::Notice(late, early));
                }
            }
        }
        made
    }

    fn one(&mut self, r: &mut Rng, t: i64, lines: Vec<Line>, dur: (i64, i64)) -> Vec<Option<usize>> {
        let commit = t + r.range(dur.0, dur.1) * 1_000;
        let req = Req { read: t + r.range(15_000, 60_000), commit, lines, copy: Dup::No };
        self.batch(r, vec![req]).remove(0)
    }

    fn recipe_lines(&self, r: &mut Rng, recipes: &[Recipe], k: usize, scale: f64) -> Vec<Line> {
        let rec = &recipes[k];
        let mut lines = Vec::new();
        for &(f, q, note) in &rec.ings {
            let (name, label, unit, _) = FOODS[f];
            let staple = label == SPICES || name.ends_with(" oil") || name == "all-purpose flour" || name == "sugar";
            // On-hand foods are skipped; people untick what they have.
            if (staple && self.on_hand) || r.chance(if staple { 0.6 } else { 0.12 }) {
                continue;
            }
            if rec.parsed {
                let qty = q * scale;
                let note = note.to_string();
                lines.push(Line {
                    note,
                    food: Some(f),
                    unit: opt(unit),
                    label: Some(label),
                    qty,
                    pos: 0,
                    checked: false,
                });
            } else {
                let u = match opt(unit) {
                    Some(u) if q > 1.0 => format!("{} ", UNITS[u].1),
                    Some(u) => format!("{} ", UNITS[u].0),
                    None => String::new(),
                };
                let plural = if unit == NO && q > 1.0 && !name.ends_with('s') { "s" } else { "" };
                let tail = if note.is_empty() { String::new() } else { format!(", {note}") };
                let text = format!("{} {u}{name}{plural}{tail}", frac(q));
                lines.push(Line {
                    note: text,
                    food: None,
                    unit: None,
                    label: Some(label),
                    qty: 0.0,
                    pos: 0,
                    checked: false,
                });
            }
        }
        lines
    }

    fn run(&mut self, r: &mut Rng, recipes: &[Recipe]) {
        let spec = self.spec;
        while let Some(Reverse((t, e))) = self.heap.pop() {
            let ev = self.evs[e].clone();
            // Nothing the snapshot would not hold yet (the slowest request commits 21 s after it starts).
            if t >= NOW - MINUTE {
                continue;
            }
            match ev {
                Ev::Web(resend) => {
                    let line = if r.chance(0.6) {
                        let n = self.pick_note(r);
                        self.note_line(n, 0.0, self.next_pos(), false, spec.labels)
                    } else {
                        let f = if r.chance(0.7) {
                            self.foods[r.skewed(self.foods.len() as u64) as usize]
                        } else {
                            r.below(FOODS.len() as u64) as usize
                        };
                        let (_, label, unit, _) = FOODS[f];
                        // A weight picked for meat and potatoes now and then.
                        let unit = if (unit == LB || unit == KG) && r.chance(0.3) { opt(unit) } else { None };
                        let qty = r.one(&[0.0, 1.0, 1.0, 1.0, 2.0, 2.0, 3.0]);
                        let pos = self.next_pos();
                        Line { note: String::new(), food: Some(f), unit, label: Some(label), qty, pos, checked: false }
                    };
                    let made = self.one(r, t, vec![line.clone()], (60, 400));
                    if let (true, Some(x)) = (resend, made[0]) {
                        self.sent.push((x, line));
                        let e = t + r.range(10, 90) * SECOND;
                        self.at(e, Ev::Resend(x));
                    }
                }
                Ev::Resend(x) => {
                    let Some(k) = self.sent.iter().position(|s| s.0 == x) else { continue };
                    let (_, line) = self.sent.remove(k);
                    let it = &self.items[x];
                    // The same id: merged into the row while it is unchecked; a conflict (and nothing) once checked.
                    if it.live && !it.checked && line.qty > 0.0 {
                        let it = &mut self.items[x];
                        (it.qty, it.upd) = (it.qty + line.qty, t + r.range(80, 400) * 1_000);
                    }
                }
                Ev::Ha(n, gap) => {
                    let n = if n == NO { self.fresh_note(r) } else { n };
                    let line = self.note_line(n, 1.0, self.next_pos(), true, false);
                    let mut reqs = vec![Req {
                        read: t + r.range(15_000, 60_000),
                        commit: t + r.range(120, 500) * 1_000,
                        lines: vec![line.clone()],
                        copy: Dup::No,
                    }];
                    if gap > 0 {
                        let s = t + gap;
                        let commit = s + r.range(120, 500) * 1_000;
                        reqs.push(Req {
                            read: s + r.range(15_000, 60_000),
                            commit,
                            lines: vec![line],
                            copy: Dup::Of(0),
                        });
                    }
                    self.batch(r, reqs);
                }
                Ev::Bot(n, how) => {
                    let n = if n == NO { self.fresh_note(r) } else { n };
                    let line = self.note_line(n, 1.0, 0, false, false);
                    match how {
                        1 => {
                            // requests' 10 s read timeout; urllib3 retries at once (no backoff on the first retry).
                            let d1 = r.range(10_200, 16_000) * 1_000;
                            let s = t + 10 * SECOND + r.range(2_000, 30_000);
                            let reqs = vec![
                                Req {
                                    read: t + r.range(15_000, 60_000),
                                    commit: t + d1,
                                    lines: vec![line.clone()],
                                    copy: Dup::No,
                                },
                                Req {
                                    read: s + r.range(15_000, 60_000),
                                    commit: s + r.range(300, 5_000) * 1_000,
                                    lines: vec![line],
                                    copy: Dup::Of(0),
                                },
                            ];
                            self.batch(r, reqs);
                        }
                        2 => {
                            let made = self.one(r, t, vec![line], (150, 600));
                            if let Some(x) = made[0] {
                                let e = t + r.range(25, 70) * MINUTE + r.range(0, 59) * SECOND;
                                self.at(e, Ev::Late(x));
                            }
                        }
                        _ => {
                            self.one(r, t, vec![line], (150, 600));
                        }
                    }
                }
                Ev::Late(x) => {
                    let line = self.items[x].born.clone();
                    let req = Req {
                        read: t + r.range(15_000, 60_000),
                        commit: t + r.range(150, 600) * 1_000,
                        lines: vec![line],
                        copy: Dup::Row(x),
                    };
                    self.batch(r, vec![req]);
                }
                Ev::Recipe(picks, gap) => {
                    // One `POST /lists/{id}/recipe` for every recipe in the dialog.
                    let lines: Vec<Line> =
                        picks.iter().flat_map(|&(k, scale)| self.recipe_lines(r, recipes, k, scale)).collect();
                    let d = r.range(250, 1_200) * 1_000 + lines.len() as i64 * r.range(5, 40) * 1_000;
                    let mut reqs = vec![Req {
                        read: t + r.range(20_000, 80_000),
                        commit: t + d,
                        lines: lines.clone(),
                        copy: Dup::No,
                    }];
                    if gap > 0 {
                        let s = t + gap;
                        let commit = s + d + r.range(-60, 150) * 1_000;
                        reqs.push(Req { read: s + r.range(20_000, 80_000), commit, lines, copy: Dup::Of(0) });
                    }
                    self.batch(r, reqs);
                }
                Ev::Import => {
                    // A one-off script moving the household's old list over with `create-bulk`: open items and
                    // the ticked-off history, note and `checked` only.
                    let mut lines: Vec<Line> = Vec::new();
                    for &n in &self.notes[..8] {
                        lines.push(self.note_line(n, 1.0, 0, false, false));
                    }
                    for _ in 0..22 {
                        let n = self.notes[r.skewed(self.notes.len() as u64) as usize];
                        lines.push(Line { checked: true, ..self.note_line(n, 1.0, 0, false, false) });
                    }
                    self.one(r, t, lines, (900, 2_500));
                }
                Ev::Cron => {
                    let lines: Vec<Line> =
                        self.notes[..5].iter().map(|&n| self.note_line(n, 1.0, 0, false, false)).collect();
                    self.one(r, t, lines, (200, 900));
                }
                Ev::Trip => {
                    let mut todo: Vec<usize> =
                        self.live().filter(|&i| !self.items[i].checked && self.items[i].at < t).collect();
                    todo.sort_by_cached_key(|&i| {
                        (self.items[i].born.label.unwrap_or(LABELS), self.items[i].pos, r.below(1_000))
                    });
                    let mut now = t;
                    for x in todo {
                        if !r.chance(0.9) {
                            continue;
                        }
                        now += r.range(8, 90) * SECOND + r.range(0, 999_999);
                        if now >= NOW - MINUTE {
                            break;
                        }
                        let it = &mut self.items[x];
                        (it.checked, it.upd) = (true, now + r.range(200_000, 5_000_000));
                        if r.chance(0.02) {
                            // Checked by mistake and undone from the toast.
                            (it.checked, it.upd) = (false, it.upd + r.range(1_500_000, 4_000_000));
                        }
                    }
                    if r.chance(spec.clear) {
                        let e = now + r.range(5, 180) * MINUTE;
                        self.at(e, Ev::Clear);
                    }
                }
                Ev::Clear => {
                    let gone: Vec<usize> = self.live().filter(|&i| self.items[i].checked).collect();
                    for x in gone {
                        self.items[x].live = false;
                    }
                }
                Ev::Trim => {
                    let mut done: Vec<usize> = self.live().filter(|&i| self.items[i].checked).collect();
                    done.sort_by_key(|&i| Reverse(self.items[i].upd));
                    for &x in done.iter().skip(MAX_CHECKED) {
                        self.items[x].live = false;
                    }
                }
                Ev::Reorder => {
                    let mut open: Vec<usize> = self.live().filter(|&i| !self.items[i].checked).collect();
                    open.sort_by_cached_key(|&i| (self.items[i].born.label.unwrap_or(LABELS), r.below(100)));
                    let mut u = t + r.range(300, 5_000) * 1_000;
                    for (p, &x) in open.iter().enumerate() {
                        let it = &mut self.items[x];
                        if it.pos != p as i64 {
                            u += r.range(40, 200);
                            (it.pos, it.upd) = (p as i64, u);
                        }
                    }
                }
                Ev::Edit(x) => {
                    let it = &mut self.items[x];
                    if it.live && !it.checked {
                        it.qty = match it.qty {
                            0.0 => r.one(&[1.0, 2.0, 2.0, 3.0]),
                            q if q >= 50.0 => q + 100.0,
                            q => q + 1.0,
                        };
                        it.upd = t + r.range(200, 5_000) * 1_000;
                    }
                }
                Ev::Drop(x) => {
                    let it = &mut self.items[x];
                    if it.live && !it.checked {
                        it.live = false;
                    }
                }
                Ev::Notice(late, early) => {
                    let (a, b) = (&self.items[late], &self.items[early]);
                    if a.live && b.live && !a.checked && !b.checked {
                        let x = if r.chance(0.7) { late } else { early };
                        self.items[x].live = false;
                    }
                }
            }
        }
    }
}

pub fn fixture() -> Fixture {
    let mut r = Rng::new(0x6d65_616c_6965);
    let lists: Vec<String> = (0..SPECS.len()).map(|_| r.uuid()).collect();
    let labels: Vec<String> = (0..LABELS).map(|_| r.uuid()).collect();
    let units: Vec<String> = (0..UNITS.len()).map(|_| r.uuid()).collect();
    let foods: Vec<String> = (0..FOODS.len()).map(|_| r.uuid()).collect();

    // The group's recipes: most parsed (foods and units), some left as imported text.
    let recipes: Vec<Recipe> = (0..40)
        .map(|_| {
            let n = r.range(5, 11) as usize;
            let mut ings: Vec<(usize, f64, &'static str)> = Vec::new();
            while ings.len() < n {
                let f = r.below(FOODS.len() as u64) as usize;
                if ings.iter().any(|i| i.0 == f) {
                    continue;
                }
                let q = r.one(FOODS[f].3);
                let note = ing_note(&mut r, FOODS[f].1);
                ings.push((f, q, note));
            }
            Recipe { ings, parsed: r.chance(0.8) }
        })
        .collect();

    let mut rows: Vec<(usize, Entry)> = Vec::new();
    let forced_last = [0_usize, 5, 2, 6];
    const IMPORTED: usize = 29;
    for (li, s) in SPECS.iter().enumerate() {
        let spec = Spec {
            house: s.0,
            tz: s.1,
            web: s.2,
            ha: s.3,
            bot: s.4,
            recipes: s.5,
            plan: s.6,
            cron: s.7,
            trips: s.8,
            clear: s.9,
            reorder: s.10,
            labels: s.11,
        };
        let mut notes: Vec<usize> = Vec::new();
        while notes.len() < 14 {
            let n = r.below(NOTES.len() as u64) as usize;
            if !notes.contains(&n) {
                notes.push(n);
            }
        }
        let foods_of: Vec<usize> = (0..8).map(|_| r.below(FOODS.len() as u64) as usize).collect();
        let cooks: Vec<usize> = (0..12).map(|_| r.below(recipes.len() as u64) as usize).collect();
        let mut sim = Sim {
            spec,
            items: Vec::new(),
            evs: Vec::new(),
            heap: BinaryHeap::new(),
            notes,
            foods: foods_of,
            cooks,
            on_hand: spec.house.is_multiple_of(2),
            sent: Vec::new(),
        };
        let plan_day = r.below(7) as i64;
        let cron_day = r.below(7) as i64;
        let mut late_left = if spec.bot > 1.0 { 2 } else { 0 };
        for d in 0..DAYS {
            let day0 = START + d * DAY;
            for _ in 0..count(&mut r, spec.web) {
                let t = local(&mut r, day0, spec.tz, &RHYTHM);
                let resend = r.chance(0.015);
                sim.at(t, Ev::Web(resend));
            }
            for _ in 0..count(&mut r, spec.ha) {
                let t = local(&mut r, day0, spec.tz, &RHYTHM);
                let n = sim.pick_note(&mut r);
                let gap = if r.chance(0.04) { r.range(60, 1_500) * 1_000 } else { 0 };
                sim.at(t, Ev::Ha(n, gap));
            }
            for _ in 0..count(&mut r, spec.bot) {
                let t = local(&mut r, day0, spec.tz, &RHYTHM);
                let n = sim.pick_note(&mut r);
                let how = if r.chance(0.05) {
                    1
                } else if r.chance(0.005) {
                    2
                } else {
                    0
                };
                sim.at(t, Ev::Bot(n, how));
            }
            if r.chance(spec.recipes / 7.0) {
                let t = local(&mut r, day0, spec.tz, &RHYTHM);
                let k = sim.cooks[r.below(sim.cooks.len() as u64) as usize];
                let scale = if r.chance(0.15) { 2.0 } else { 1.0 };
                let gap = if r.chance(0.04) { r.range(40, 400) * 1_000 } else { 0 };
                sim.at(t, Ev::Recipe(vec![(k, scale)], gap));
            }
            if spec.plan && d % 7 == plan_day {
                let t = day0 - spec.tz * HOUR + r.range(17, 20) * HOUR + r.range(0, 3_599) * SECOND;
                let week: Vec<(usize, f64)> = (0..r.range(3, 5))
                    .map(|_| {
                        let k = sim.cooks[r.below(sim.cooks.len() as u64) as usize];
                        (k, if r.chance(0.2) { 2.0 } else { 1.0 })
                    })
                    .collect();
                let gap = if r.chance(0.03) { r.range(40, 400) * 1_000 } else { 0 };
                sim.at(t, Ev::Recipe(week, gap));
            }
            if li == IMPORTED && d == 18 {
                let t = day0 - spec.tz * HOUR + 20 * HOUR + r.range(0, 3_599_999_999);
                sim.at(t, Ev::Import);
            }
            if spec.cron && d % 7 == cron_day {
                let t = day0 - spec.tz * HOUR + 7 * HOUR + r.range(0, 2_999_999);
                sim.at(t, Ev::Cron);
            }
            if r.chance(spec.trips / 7.0) {
                let t = day0 - spec.tz * HOUR + r.range(9, 19) * HOUR + r.range(0, 3_599) * SECOND;
                sim.at(t, Ev::Trip);
                // The bot's 502s that its queue re-sends after the shopper has already ticked the item off.
                if late_left > 0 && d >= DAYS - 24 && r.chance(0.4) {
                    late_left -= 1;
                    sim.at(t - r.range(3, 20) * MINUTE - r.range(0, 59_999_999), Ev::Bot(NO, 2));
                }
            }
            if spec.reorder && r.chance(0.08) {
                let t = local(&mut r, day0, spec.tz, &RHYTHM);
                sim.at(t, Ev::Reorder);
            }
            sim.at(day0 + 23 * HOUR + 45 * MINUTE, Ev::Trim);
        }
        // Three double sends in the last day.
        let t = NOW - r.range(3, 10) * HOUR - r.range(0, 3_599_999_999);
        match forced_last.iter().position(|&l| l == li) {
            Some(0) => sim.at(t, Ev::Recipe(vec![(sim.cooks[0], 1.0)], r.range(60, 110) * 1_000)),
            Some(1) => sim.at(t, Ev::Ha(NO, r.range(30, 40) * 1_000)),
            Some(2 | 3) => sim.at(t, Ev::Bot(NO, 1)),
            _ => {}
        }
        sim.run(&mut r, &recipes);
        rows.extend(sim.items.into_iter().map(|it| (li, it)));
    }

    // What is left: rows not deleted, in insert order.
    let mut keep: Vec<usize> = (0..rows.len()).filter(|&i| rows[i].1.live).collect();
    keep.sort_by_key(|&i| (rows[i].1.at, i));
    let columns: Vec<&'static str> = COLUMNS.split_whitespace().collect();
    let mut f = Fixture::new("shopping_list_items", &columns);
    let base: Vec<usize> = {
        // Index of each list's first row in `rows`, so `retry_of` (an index within the list) can be looked up.
        let mut b = vec![0; SPECS.len()];
        for i in (0..rows.len()).rev() {
            b[rows[i].0] = i;
        }
        b
    };
    for (k, &i) in keep.iter().enumerate() {
        let (li, it) = &rows[i];
        let mark = match it.retry_of {
            Some(o) if rows[base[*li] + o].1.live => Mark::Retry,
            _ if it.intent && keep[..k].iter().any(|&j| rows[j].0 == *li && rows[j].1.born == it.born) => Mark::Legit,
            _ => Mark::Plain,
        };
        let id = |x: Option<usize>, ids: &[String]| x.map_or(V::Null, |x| V::t(&ids[x]));
        f.push(&[
            ("created_at", V::At(it.at)),
            ("update_at", V::At(it.upd)),
            ("id", V::t(&it.id)),
            ("shopping_list_id", V::t(&lists[*li])),
            ("is_ingredient", V::B(true)),
            ("position", V::I(it.pos)),
            ("checked", V::B(it.checked)),
            ("quantity", V::F(it.qty)),
            ("note", V::t(&it.note)),
            ("is_food", V::B(false)),
            ("unit_id", id(it.unit, &units)),
            ("food_id", id(it.born.food, &foods)),
            ("label_id", id(it.born.label, &labels)),
            ("food_snapshot", V::Null),
        ]);
        f.mark(&it.id, mark);
        if mark == Mark::Retry && it.hidden {
            f.hidden.insert(it.id.clone());
        }
    }
    f
}
