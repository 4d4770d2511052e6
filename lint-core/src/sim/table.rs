//! Lookup tables that hold ids only: the key is read from the record an id names. An entry is
//! the 4-byte id; a map from a copy of the key took 24 to 40 bytes an entry (on the 20,000-object
//! benchmark corpus, 2.2 MB for claims and volumes, alive through the rules).

use std::hash::{BuildHasher, Hash, RandomState};

use hashbrown::hash_table::Entry;
use hashbrown::HashTable;

/// Ids looked up by a key their records hold. Every method takes `key_of`, which reads the key
/// of an id already in the table from its record.
#[derive(Debug, Clone)]
pub(crate) struct IdTable<I> {
    table: HashTable<I>,
    hasher: RandomState,
}

impl<I> Default for IdTable<I> {
    fn default() -> Self {
        IdTable {
            table: HashTable::new(),
            hasher: RandomState::new(),
        }
    }
}

impl<I: Copy> IdTable<I> {
    pub(crate) fn get<K: Hash + Eq>(&self, key: K, key_of: impl Fn(I) -> K) -> Option<I> {
        let hash = self.hasher.hash_one(&key);
        self.table.find(hash, |&i| key_of(i) == key).copied()
    }

    /// Makes `id` the id of `key`, in place of the one it had.
    pub(crate) fn insert<K: Hash + Eq>(&mut self, key: K, id: I, key_of: impl Fn(I) -> K) {
        let Self { table, hasher } = self;
        let hash = hasher.hash_one(&key);
        match table.entry(hash, |&i| key_of(i) == key, |&i| hasher.hash_one(key_of(i))) {
            Entry::Occupied(mut e) => *e.get_mut() = id,
            Entry::Vacant(e) => {
                e.insert(id);
            }
        }
    }

    pub(crate) fn remove<K: Hash + Eq>(&mut self, key: K, key_of: impl Fn(I) -> K) {
        let hash = self.hasher.hash_one(&key);
        if let Ok(e) = self.table.find_entry(hash, |&i| key_of(i) == key) {
            e.remove();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::IdTable;

    /// Ids stand for records that hold their keys; a key given again takes the new id, and a
    /// table that grows past its first capacity still finds every key.
    #[test]
    fn finds_replaces_and_removes() {
        let names: Vec<String> = (0..1000).map(|i| format!("pv-{i}")).collect();
        let key_of = |i: u32| names[i as usize].as_str();
        let mut t = IdTable::default();
        for i in 0..1000u32 {
            t.insert(names[i as usize].as_str(), i, key_of);
        }
        for (i, n) in names.iter().enumerate() {
            assert_eq!(t.get(n.as_str(), key_of), Some(i as u32));
        }
        assert_eq!(t.get("pv-1000", key_of), None);
        let mut again = names.clone();
        again.push("pv-7".into());
        let key_of = |i: u32| again[i as usize].as_str();
        t.insert("pv-7", 1000, key_of);
        assert_eq!(t.get("pv-7", key_of), Some(1000));
        t.remove("pv-7", key_of);
        assert_eq!(t.get("pv-7", key_of), None);
        assert_eq!(t.get("pv-8", key_of), Some(8));
    }
}
