package config

import "fmt"

// readInputs reads VS Code's "inputs" list: prompts VS Code shows for
// ${input:ID}. tai prompts for nothing at spawn time; it reads the vault
// secret named ID instead, so the list only serves to tell the person
// which secrets to store. It returns each input's description by id.
func readInputs(doc map[string]any) (map[string]string, error) {
	v, ok := doc["inputs"]
	if !ok {
		return nil, nil
	}
	list, ok := v.([]any)
	if !ok {
		return nil, typeError("inputs", "a list", v)
	}
	out := map[string]string{}
	for i, x := range list {
		where := fmt.Sprintf("inputs[%d]", i)
		m, err := wantObject(x, where)
		if err != nil {
			return nil, err
		}
		id, err := wantString(m["id"], where+".id")
		if err != nil {
			return nil, err
		}
		if id == "" {
			return nil, fmt.Errorf("%s.id is empty: give the input an id", where)
		}
		desc, _ := m["description"].(string)
		out[id] = desc
	}
	return out, nil
}

// noteInputs tells the person, for each ${input:ID} the entry uses, which
// vault secret it reads.
func noteInputs(e *Entry, inputs map[string]string) {
	seen := map[string]bool{}
	walk(e, func(_, s string) string {
		for _, sg := range scan(s) {
			if sg.ref == nil || sg.ref.kind != refInput || seen[sg.ref.name] {
				continue
			}
			id := shown(sg.ref.name)
			seen[sg.ref.name] = true
			what := ""
			if desc := inputs[sg.ref.name]; desc != "" {
				what = " (" + quote(desc) + ")"
			}
			e.Notes = append(e.Notes, fmt.Sprintf("${input:%s}%s is read from the vault secret %s: store it with tai secret set %s", id, what, id, id))
		}
		return s
	})
}
