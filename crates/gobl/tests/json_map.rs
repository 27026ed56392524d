//! `gobl::json::Map` gives the same members, in the same order, as `serde_json::Map` (built
//! with `preserve_order`) after any sequence of the operations both have: code moved from one
//! to the other writes the same documents.

use gobl::json::{Map, Value};
use proptest::prelude::*;

#[derive(Debug, Clone)]
enum Op {
    Insert(u16, i64),
    Remove(u16),
    ShiftRemove(u16),
    ShiftInsert(usize, u16, i64),
    RetainOdd,
    OrInsert(u16, i64),
    EntryRemove(u16),
    Append(Vec<(u16, i64)>),
    SortKeys,
}

/// Keys from a range wide enough that maps cross the size where the index is kept.
fn op() -> impl Strategy<Value = Op> {
    let key = 0u16..80;
    prop_oneof![
        6 => (key.clone(), any::<i64>()).prop_map(|(k, v)| Op::Insert(k, v)),
        2 => key.clone().prop_map(Op::Remove),
        1 => key.clone().prop_map(Op::ShiftRemove),
        2 => (0usize..100, key.clone(), any::<i64>()).prop_map(|(i, k, v)| Op::ShiftInsert(i, k, v)),
        1 => Just(Op::RetainOdd),
        2 => (key.clone(), any::<i64>()).prop_map(|(k, v)| Op::OrInsert(k, v)),
        1 => key.clone().prop_map(Op::EntryRemove),
        1 => prop::collection::vec((key, any::<i64>()), 0..40).prop_map(Op::Append),
        1 => Just(Op::SortKeys),
    ]
}

fn name(k: u16) -> String {
    format!("k{k}")
}

fn apply(ours: &mut Map, theirs: &mut serde_json::Map<String, serde_json::Value>, op: &Op) {
    match op {
        Op::Insert(k, v) => {
            let a = ours.insert(name(*k).into(), Value::from(*v));
            let b = theirs.insert(name(*k), (*v).into());
            assert_eq!(a.map(|x| x.to_string()), b.map(|x| x.to_string()));
        }
        Op::Remove(k) => {
            let a = ours.remove(&name(*k));
            let b = theirs.remove(&name(*k));
            assert_eq!(a.map(|x| x.to_string()), b.map(|x| x.to_string()));
        }
        Op::ShiftRemove(k) => {
            assert_eq!(
                ours.shift_remove(&name(*k)).is_some(),
                theirs.shift_remove(&name(*k)).is_some()
            );
        }
        Op::ShiftInsert(i, k, v) => {
            // the position must be valid for the map as it will be (IndexMap panics past it)
            let len = theirs.len() - usize::from(theirs.contains_key(&name(*k)));
            let at = i % (len + 1);
            ours.shift_insert(at, name(*k).into(), Value::from(*v));
            theirs.shift_insert(at, name(*k), (*v).into());
        }
        Op::RetainOdd => {
            ours.retain(|_, v| v.as_i64().is_some_and(|n| n % 2 != 0));
            theirs.retain(|_, v| v.as_i64().is_some_and(|n| n % 2 != 0));
        }
        Op::OrInsert(k, v) => {
            let a = ours
                .entry(name(*k).into())
                .or_insert(Value::from(*v))
                .to_string();
            let b = theirs.entry(name(*k)).or_insert((*v).into()).to_string();
            assert_eq!(a, b);
        }
        Op::EntryRemove(k) => {
            if let gobl::json::Entry::Occupied(o) = ours.entry(name(*k).into()) {
                o.remove();
            }
            if let serde_json::map::Entry::Occupied(o) = theirs.entry(name(*k)) {
                o.remove();
            }
        }
        Op::Append(items) => {
            let mut a: Map = items
                .iter()
                .map(|(k, v)| (name(*k), Value::from(*v)))
                .collect();
            let mut b: serde_json::Map<String, serde_json::Value> =
                items.iter().map(|(k, v)| (name(*k), (*v).into())).collect();
            ours.append(&mut a);
            theirs.append(&mut b);
            assert!(a.is_empty() && b.is_empty());
        }
        Op::SortKeys => {
            ours.sort_keys();
            theirs.sort_keys();
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    #[test]
    fn same_members_in_the_same_order(ops in prop::collection::vec(op(), 0..160)) {
        let mut ours = Map::new();
        let mut theirs = serde_json::Map::new();
        for op in &ops {
            apply(&mut ours, &mut theirs, op);
            let a: Vec<(String, String)> =
                ours.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect();
            let b: Vec<(String, String)> =
                theirs.iter().map(|(k, v)| (k.clone(), v.to_string())).collect();
            prop_assert_eq!(&a, &b, "after {:?}", op);
            // every member is found by key, whether the map is scanned or indexed
            for (k, v) in &b {
                prop_assert_eq!(ours.get(k).map(|x| x.to_string()), Some(v.clone()));
            }
            prop_assert!(ours.get("absent").is_none());
        }
    }
}

#[test]
fn equality_ignores_order_as_serde_json_does() {
    let a = gobl::json::parse(r#"{"a":1,"b":{"x":[1,2],"y":null}}"#).unwrap();
    let b = gobl::json::parse(r#"{"b":{"y":null,"x":[1,2]},"a":1}"#).unwrap();
    let c = gobl::json::parse(r#"{"b":{"y":null,"x":[2,1]},"a":1}"#).unwrap();
    assert_eq!(a, b);
    assert_ne!(a, c);
}
